import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { TAllergy, TAllergyStatement, TChartRevision, TMedication, TPreviousRecordMatch, TPreviousRecordsQuery, TProblem } from '#domain/chart';
import type { TPage } from '#domain/paging';
import { vitalFlag, withComputed, type TVitalSeries, type TVitalSign, type TVitalsSet, type TVitalTrendPoint } from '#domain/vital-signs';
import type { Queryable } from '../../db/database.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { escapeLike } from '../../db/like.ts';
import { users } from '../../db/schema/auth.ts';
import { chartRevisions, patientAllergies, patientMedications, patientProblems, vitalSigns } from '../../db/schema/chart.ts';
import { patients } from '../../db/schema/clinical.ts';
import { fullName } from '../../db/user-name.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/** The names of who recorded and who confirmed an entry, joined once per query. */
const recorder = alias(users, 'recorder');
const confirmer = alias(users, 'confirmer');
const nameOf = (u: { firstName: AnyPgColumn; lastName: AnyPgColumn }) => sql<string | null>`nullif(concat_ws(' ', ${u.firstName}, ${u.lastName}), '')`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type TAllergyRow = typeof patientAllergies.$inferSelect;
type TMetaRow = Pick<TAllergyRow, 'id' | 'patientId' | 'state' | 'version' | 'recordedAt' | 'recordedById' | 'confirmedAt' | 'updatedAt'>;
type TNames = { recordedByName: string | null; confirmedByName: string | null };

/** Who wrote an entry and where it stands, as every list shows it. */
const metaOf = (r: TMetaRow, names: TNames) => ({
  id: r.id,
  patientId: r.patientId,
  state: r.state,
  version: r.version,
  recordedAt: r.recordedAt.toISOString(),
  recordedById: r.recordedById,
  recordedByName: names.recordedByName,
  confirmedAt: iso(r.confirmedAt),
  confirmedByName: names.confirmedByName,
  updatedAt: r.updatedAt.toISOString(),
});

const toAllergy = (r: TAllergyRow, names: TNames): TAllergy => ({
  ...metaOf(r, names),
  substance: { kind: r.substanceKind, code: r.substanceCode, name: r.substanceName },
  type: r.type,
  category: r.category,
  reactions: r.reactions,
  severity: r.severity,
  criticality: r.criticality,
  onset: r.onset,
  status: r.status,
  note: r.note,
});

const toProblem = (r: typeof patientProblems.$inferSelect, names: TNames): TProblem => ({
  ...metaOf(r, names),
  condition: { code: r.code, name: r.name },
  clinicalStatus: r.clinicalStatus,
  verification: r.verification,
  onset: r.onset,
  abatement: r.abatement,
  note: r.note,
});

const toMedication = (r: typeof patientMedications.$inferSelect, names: TNames): TMedication => ({
  ...metaOf(r, names),
  medication: { formularyId: r.formularyId, name: r.name },
  dose: r.dose,
  route: r.route,
  frequency: r.frequency,
  start: r.start,
  stop: r.stop,
  status: r.status,
  stopReason: r.stopReason,
  source: r.source,
  note: r.note,
});

/** A list's entries of one patient (entered-in-error ones included: the chart shows them struck through), as recorded, with who wrote and confirmed them. */
function entriesOf<T extends typeof patientAllergies | typeof patientProblems | typeof patientMedications, E>(
  table: T,
  shape: (row: T['$inferSelect'], names: TNames) => E,
) {
  return async (q: Queryable, patientId: string, where?: SQL): Promise<E[]> => {
    const rows = await q
      .select({ row: table as typeof patientAllergies, recordedByName: nameOf(recorder), confirmedByName: nameOf(confirmer) })
      .from(table as typeof patientAllergies)
      .leftJoin(recorder, eq(recorder.id, table.recordedById))
      .leftJoin(confirmer, eq(confirmer.id, table.confirmedById))
      .where(where ? sql`${table.patientId} = ${patientId}::uuid and ${where}` : eq(table.patientId, patientId))
      .orderBy(asc(table.recordedAt), asc(table.id));
    return rows.map(({ row, ...names }) => shape(row as T['$inferSelect'], names));
  };
}

export const allergiesOf = entriesOf(patientAllergies, toAllergy);
export const problemsOf = entriesOf(patientProblems, toProblem);
export const medicationsOf = entriesOf(patientMedications, toMedication);

/** One entry's row, locked for a change (concurrent changes queue, and the version decides). */
function lockOf<T extends typeof patientAllergies | typeof patientProblems | typeof patientMedications | typeof vitalSigns>(table: T) {
  return async (q: Queryable, patientId: string, id: string): Promise<T['$inferSelect'] | null> => {
    const [row] = await q
      .select()
      .from(table as typeof patientAllergies)
      .where(sql`${table.id} = ${id}::uuid and ${table.patientId} = ${patientId}::uuid`)
      .for('update');
    return (row as T['$inferSelect'] | undefined) ?? null;
  };
}

export const lockAllergy = lockOf(patientAllergies);
export const lockProblem = lockOf(patientProblems);
export const lockMedication = lockOf(patientMedications);

/** Her NKA / NKDA statement, with who made it and when; null when nobody has. */
export async function allergyStatementOf(q: Queryable, patientId: string): Promise<TAllergyStatement | null> {
  const stater = alias(users, 'stater');
  const [row] = await q
    .select({ value: patients.allergyStatement, at: patients.allergyStatedAt, byName: nameOf(stater) })
    .from(patients)
    .leftJoin(stater, eq(stater.id, patients.allergyStatedById))
    .where(eq(patients.id, patientId));
  return row?.value && row.at ? { value: row.value, at: row.at.toISOString(), byName: row.byName } : null;
}

/** The chart's history, newest first: one entry's, or the whole chart's. */
export async function revisionsOf(q: Queryable, patientId: string, entryId: string | null): Promise<TChartRevision[]> {
  const actor = alias(users, 'actor');
  const rows = await q
    .select({ revision: chartRevisions, actorName: sql<string>`coalesce(${fullName('actor')}, ${actor.email})` })
    .from(chartRevisions)
    .innerJoin(actor, eq(actor.id, chartRevisions.actorId))
    .where(
      entryId
        ? sql`${chartRevisions.patientId} = ${patientId}::uuid and ${chartRevisions.entryId} = ${entryId}::uuid`
        : eq(chartRevisions.patientId, patientId),
    )
    .orderBy(desc(chartRevisions.at), desc(chartRevisions.id))
    .limit(500);
  return rows.map(({ revision: r, actorName }) => ({
    id: r.id,
    list: r.list,
    entryId: r.entryId,
    action: r.action,
    at: r.at.toISOString(),
    actorName,
    before: r.before,
    after: r.after,
    reason: r.reason,
  }));
}

const VITAL_COLUMNS = [
  'systolic',
  'diastolic',
  'heartRate',
  'respiratoryRate',
  'temperature',
  'spo2',
  'weight',
  'height',
  'pain',
] as const satisfies readonly TVitalSign[];

const toVitals = (r: typeof vitalSigns.$inferSelect, names: TNames): TVitalsSet => ({
  ...metaOf(r, names),
  appointmentId: r.appointmentId,
  takenAt: r.takenAt.toISOString(),
  status: r.status,
  note: r.note,
  ...withComputed(Object.fromEntries(VITAL_COLUMNS.map((sign) => [sign, r[sign]])) as Record<TVitalSign, number | null>),
});

/** Her vital-sign sets, newest taken first; the chart reads the latest few (`limit`), a change one (`where`). */
export async function vitalsOf(q: Queryable, patientId: string, where?: SQL, limit = 1_000): Promise<TVitalsSet[]> {
  const rows = await q
    .select({ row: vitalSigns, recordedByName: nameOf(recorder), confirmedByName: nameOf(confirmer) })
    .from(vitalSigns)
    .leftJoin(recorder, eq(recorder.id, vitalSigns.recordedById))
    .leftJoin(confirmer, eq(confirmer.id, vitalSigns.confirmedById))
    .where(where ? sql`${vitalSigns.patientId} = ${patientId}::uuid and ${where}` : eq(vitalSigns.patientId, patientId))
    .orderBy(desc(vitalSigns.takenAt), desc(vitalSigns.id))
    .limit(limit);
  return rows.map(({ row, ...names }) => toVitals(row, names));
}

export const lockVitals = lockOf(vitalSigns);

/** One sign's values over time, oldest first, from the sets not entered in error; BMI from the sets with both weight and height. */
export async function vitalTrendOf(q: Queryable, patientId: string, sign: TVitalSeries, from: Date | null): Promise<TVitalTrendPoint[]> {
  const value =
    sign === 'bmi' ? sql<number | null>`round((${vitalSigns.weight} / power(${vitalSigns.height} / 100, 2))::numeric, 1)::float8` : vitalSigns[sign];
  const rows = await q
    .select({ takenAt: vitalSigns.takenAt, value })
    .from(vitalSigns)
    .where(
      sql`${vitalSigns.patientId} = ${patientId}::uuid and ${vitalSigns.status} = 'final' and ${value} is not null${from ? sql` and ${vitalSigns.takenAt} >= ${from}` : sql``}`,
    )
    .orderBy(asc(vitalSigns.takenAt));
  return rows.map((r) => ({ takenAt: r.takenAt.toISOString(), value: r.value!, flag: vitalFlag(sign, r.value!) }));
}

const PREVIOUS_RECORD_CURSOR = z.tuple([ZCursorText, ZCursorText, ZCursorUuid]);

/**
 * The patients whose notes from the previous record hold `q` (any case, in any of the three),
 * or all who have such notes, by name, a page at a time: the clinic's worklist for coding them.
 * Active patients in the reader's scope only: a restricted one outside her reach is not there.
 */
export async function previousRecordsOf(q: Queryable, scope: ReadScope, query: TPreviousRecordsQuery): Promise<TPage<TPreviousRecordMatch>> {
  const p = patients;
  const texts = [p.allergies, p.medicalHistory, p.currentMedications];
  const term = query.q ? `%${escapeLike(query.q.toLowerCase())}%` : null;
  const where = [
    sql`${p.isActive}`,
    scope.patientRowSeen(sql`${p}`),
    sql`(${sql.join(
      texts.map((t) => sql`btrim(coalesce(${t}, '')) <> ''`),
      sql` or `,
    )})`,
  ];
  if (term)
    where.push(
      sql`(${sql.join(
        texts.map((t) => sql`lower(${t}) like ${term}`),
        sql` or `,
      )})`,
    );
  const order = [sql`lower(${p.lastName})`, sql`lower(${p.firstName})`, sql`${p.id}`];
  if (query.cursor) {
    const [last, first, id] = decodeCursor(query.cursor, PREVIOUS_RECORD_CURSOR);
    where.push(after(order, [sql`${last}`, sql`${first}`, sql`${id}::uuid`]));
  }
  const rows = await q
    .select({
      patientId: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      dateOfBirth: p.dateOfBirth,
      allergies: p.allergies,
      medicalHistory: p.medicalHistory,
      currentMedications: p.currentMedications,
    })
    .from(p)
    .where(sql.join(where, sql` and `))
    .orderBy(...order)
    .limit(query.limit + 1);
  const { page, nextCursor } = takePage(rows, query.limit, (r) => [r.lastName.toLowerCase(), r.firstName.toLowerCase(), r.patientId]);
  return { items: page, total: null, nextCursor };
}
