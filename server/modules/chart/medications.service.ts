import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ZFormularyOption, ZMedicationFields, type TFormularyOption, type TMedication, type TMedicationFields } from '#domain/chart';
import type { Queryable } from '../../db/database.ts';
import { escapeLike } from '../../db/like.ts';
import { patientMedications } from '../../db/schema/chart.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { invalid } from '../../http/errors.ts';
import { lockMedication, medicationsOf } from './chart.queries.ts';
import type { TChartListDef } from './chart-entries.ts';

const SUGGESTIONS = 20;

/**
 * The formulary's active items whose name (its ingredients, strength and form) or a brand name
 * holds the term (any case): those whose name starts with it first, then those a brand names.
 */
export async function searchFormulary(q: Queryable, term: string): Promise<TFormularyOption[]> {
  const needle = escapeLike(term.toLowerCase());
  return rowsOf(
    q,
    ZFormularyOption,
    sql`select id, name, route, rxcui, dose_form as "doseForm", schedule from formulary_items
      where is_active and (lower(name) like ${`%${needle}%`} or exists (select 1 from unnest(brand_names) b where b like ${`${needle}%`}))
      order by (lower(name) like ${`${needle}%`}) desc, (lower(name) like ${`%${needle}%`}) desc, name limit ${SUGGESTIONS}`,
  );
}

/** The medication as stored: a formulary item (its name is the formulary's; an unknown or retired one is a 400), or free text. */
async function resolvedMedication(q: Queryable, medication: TMedicationFields['medication']): Promise<{ formularyId: string | null; name: string }> {
  if (!medication.formularyId) return { formularyId: null, name: medication.name! };
  const [found] = await rowsOf(
    q,
    z.object({ name: z.string() }),
    sql`select name from formulary_items where id = ${medication.formularyId}::uuid and is_active`,
  );
  if (!found) throw invalid('medication.formularyId', 'Unknown medication: choose one from the list, or name it as free text');
  return { formularyId: medication.formularyId, name: found.name };
}

/** The medication list: what she takes, from the formulary or free text, with its course and where the record came from. */
export const MEDICATION_LIST: TChartListDef<typeof patientMedications, TMedication, TMedicationFields> = {
  list: 'medication',
  table: patientMedications,
  fields: ZMedicationFields,
  inputOf: (m) => ({
    medication: m.medication,
    dose: m.dose,
    route: m.route,
    frequency: m.frequency,
    start: m.start,
    stop: m.stop,
    status: m.status,
    stopReason: m.stopReason,
    source: m.source,
    note: m.note,
  }),
  inError: (m) => m.status === 'entered_in_error',
  read: medicationsOf,
  lock: lockMedication,
  columns: async (tx, fields, { sent, before }) => {
    const medication = !before || sent?.medication ? await resolvedMedication(tx, fields.medication) : before.medication;
    return {
      formularyId: medication.formularyId,
      name: medication.name,
      dose: fields.dose,
      route: fields.route ?? null,
      frequency: fields.frequency,
      start: fields.start,
      stop: fields.stop,
      status: fields.status,
      stopReason: fields.stopReason,
      source: fields.source,
      note: fields.note,
    };
  },
};
