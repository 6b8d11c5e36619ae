import { eq, sql } from 'drizzle-orm';
import { allergySummaryOf, type TChart, type TChartRevision, type TPreviousRecordsQuery } from '#domain/chart';
import type { TVitalSeries, TVitalTrendPoint } from '#domain/vital-signs';
import type { Queryable } from '../../db/database.ts';
import { patientAllergies } from '../../db/schema/chart.ts';
import { clinicSettings } from '../../db/schema/auth.ts';
import { patients } from '../../db/schema/clinical.ts';
import { HttpError } from '../../http/errors.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { plainReadOf, readOf } from '../../scope/reader.ts';
import { allergiesOf, allergyStatementOf, medicationsOf, previousRecordsOf, problemsOf, revisionsOf, vitalsOf, vitalTrendOf } from './chart.queries.ts';
import { searchFormulary } from './medications.service.ts';
import { searchConditions } from './problems.service.ts';
import { searchSubstances } from './substances.ts';

const NOT_FOUND = 'Patient not found';
/** The chart shows her latest sets; older ones are in each sign's trend. */
const LATEST_VITALS = 10;

/** Whether the reader sees the patient: null when there is none, a 403 for a restricted one outside her reach (she may break the glass). */
async function seenPatient(q: Queryable, scope: ReadScope, patientId: string) {
  const [row] = await q
    .select({
      id: patients.id,
      seen: sql<boolean>`${scope.patientRowSeen(sql`${patients}`)}`,
      allergies: patients.allergies,
      medicalHistory: patients.medicalHistory,
      currentMedications: patients.currentMedications,
    })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!row) return null;
  if (!row.seen) throw new HttpError('record.restricted');
  return row;
}

/** The reads of the chart, each in the caller's scope and audited as a read of the patient. */
export const CHART_READS = {
  /** The whole chart in one request: every list, the allergy summary, and the notes from the previous record. */
  chart: readOf({
    action: 'chart.read',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, patientId: string): Promise<TChart | null> => {
      const patient = await seenPatient(db, scope, patientId);
      if (!patient) return null;
      const [allergies, statement, problems, medications, vitals, [settings]] = await Promise.all([
        allergiesOf(db, patientId),
        allergyStatementOf(db, patientId),
        problemsOf(db, patientId),
        medicationsOf(db, patientId),
        vitalsOf(db, patientId, undefined, LATEST_VITALS),
        db.select({ unitSystem: clinicSettings.unitSystem }).from(clinicSettings),
      ]);
      return {
        patientId,
        allergies,
        allergySummary: allergySummaryOf(allergies, statement),
        problems,
        medications,
        vitals,
        unitSystem: settings?.unitSystem ?? 'metric',
        previousRecord: { allergies: patient.allergies, medicalHistory: patient.medicalHistory, currentMedications: patient.currentMedications },
      };
    },
    shows: (_chart, patientId) => ({ entityId: patientId, patientId }),
  }),
  /** The chart's history (every change, with its before and after), or one entry's. */
  history: readOf({
    action: 'chart.history',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, args: { patientId: string; entryId: string | null }): Promise<TChartRevision[] | null> =>
      (await seenPatient(db, scope, args.patientId)) ? revisionsOf(db, args.patientId, args.entryId) : null,
    shows: (_revisions, args) => ({ entityId: args.patientId, patientId: args.patientId }),
  }),
  /** One vital sign's values over time (its trend chart). */
  vitalTrend: readOf({
    action: 'chart.trend',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, args: { patientId: string; sign: TVitalSeries; from: Date | null }): Promise<TVitalTrendPoint[] | null> =>
      (await seenPatient(db, scope, args.patientId)) ? vitalTrendOf(db, args.patientId, args.sign, args.from) : null,
    shows: (_points, args) => ({ entityId: args.patientId, patientId: args.patientId }),
  }),
  /** The clinic's notes from previous records, searched: every patient on the page is in its row. */
  previousRecords: readOf({
    action: 'chart.previous_records',
    entityType: 'patient',
    run: ({ db, scope }, query: TPreviousRecordsQuery) => previousRecordsOf(db, scope, query),
    shows: (page) => (page.items.length > 0 ? { patientIds: page.items.map((m) => m.patientId) } : null),
  }),
  /** The substances an allergy may name: catalogues, no patient data. */
  substances: plainReadOf({ shows: 'no patient data', run: ({ db }, term: string) => searchSubstances(db, term) }),
  /** The conditions a problem may name (ICD-10-CM): a catalogue, no patient data. */
  conditions: plainReadOf({ shows: 'no patient data', run: ({ db }, term: string) => searchConditions(db, term) }),
  /** The formulary's items a medication may name: a catalogue, no patient data. */
  formulary: plainReadOf({ shows: 'no patient data', run: ({ db }, term: string) => searchFormulary(db, term) }),
};

/** A patient's allergy summary for the banner, sent with her record (her read is audited there). */
export async function allergySummaryFor(q: Queryable, patientId: string) {
  const [allergies, statement] = await Promise.all([allergiesOf(q, patientId, sql`${patientAllergies.status} = 'active'`), allergyStatementOf(q, patientId)]);
  return allergySummaryOf(allergies, statement);
}
