import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ALLERGY_ASSESSMENTS } from '#domain/allergy-summary';
import { ALLERGY_STATUSES, SUBSTANCE_KINDS } from '#domain/chart';
import { prescriptionNumber, ZPrescription, type TPrescription, type TPrescriptionView } from '#domain/prescriptions';
import { sigSentence } from '#domain/sig';
import type { Queryable } from '../../db/database.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { prescriptions } from '../../db/schema/prescriptions.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { fullName } from '../../db/user-name.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import type { TCheckedAllergy, TCheckedDrug, TOtherDrug } from './checks/prescription-checks.ts';

/** A prescription as the API gives it: names joined in, the sig's sentence made here. */
const COLUMNS = sql`p.id, p.number, p.patient_id as "patientId", concat_ws(' ', patient.first_name, patient.last_name) as "patientName",
  p.appointment_id as "appointmentId", p.formulary_id as "formularyId", p.medication_name as "medicationName", p.schedule, p.sig,
  p.quantity, p.quantity_unit as "quantityUnit", p.refills, p.days_supply as "daysSupply", p.substitution_allowed as "substitutionAllowed",
  p.pharmacy_note as "pharmacyNote",
  case when problem.id is null then null else json_build_object('id', problem.id, 'code', problem.code, 'name', problem.name) end as diagnosis,
  p.status, p.status_reason as "statusReason", p.prescriber_id as "prescriberId", ${fullName('prescriber')} as "prescriberName",
  p.prepared_by_id as "preparedById", ${fullName('preparer')} as "preparedByName", ${isoText(sql`p.signed_at`)} as "signedAt",
  ${isoText(sql`p.sent_at`)} as "sentAt", ${isoText(sql`p.ended_at`)} as "endedAt", p.alerts, p.replaces_id as "replacesId",
  p.replace_kind as "replaceKind", p.medication_entry_id as "medicationEntryId", ${isoText(sql`p.created_at`)} as "createdAt",
  ${isoText(sql`p.updated_at`)} as "updatedAt"`;
const JOINS = sql`join patients patient on patient.id = p.patient_id
  left join users prescriber on prescriber.id = p.prescriber_id
  left join users preparer on preparer.id = p.prepared_by_id
  left join patient_problems problem on problem.id = p.diagnosis_id`;

const ZRow = ZPrescription.omit({ number: true, sigText: true }).extend({ number: z.number().int() });
const served = ({ number, ...row }: z.infer<typeof ZRow>): TPrescription => ({ ...row, number: prescriptionNumber(number), sigText: sigSentence(row.sig) });

/** Each list's rows, newest first (the partial indexes of migration 0032 hold them in that order). */
const VIEWS: Record<TPrescriptionView, (viewerId: string) => SQL> = {
  to_sign: (viewerId) => sql`p.status = 'draft' and p.prescriber_id = ${viewerId}::uuid`,
  prepared: (viewerId) => sql`p.status = 'draft' and p.prepared_by_id = ${viewerId}::uuid`,
  active: () => sql`p.status in ('signed', 'active')`,
  recent: () => sql`true`,
};

export const decodePrescriptionCursor = (raw: string) => decodeCursor(raw, z.tuple([ZCursorInstant, ZCursorUuid]));

/**
 * A first page's total is counted up to this and no further (`totalCapped`: "1,000+"): the
 * recent list of a busy clinic holds every prescription it ever wrote, and counting them all
 * in her scope would cost more than the page.
 */
const COUNT_CAP = 1_000;

/** One page of a list in the caller's scope, with its total (capped) on the first page. */
export async function listPrescriptions(
  q: Queryable,
  scope: ReadScope,
  opts: { view: TPrescriptionView; patientId?: string | undefined; limit: number; after: [string, string] | null },
): Promise<{ items: TPrescription[]; total: number | null; totalCapped: boolean; nextCursor: string | null }> {
  const where: SQL[] = [scope.prescriptions, VIEWS[opts.view](scope.viewer.id)];
  if (opts.patientId) where.push(sql`p.patient_id = ${opts.patientId}::uuid`);
  const filter = sql.join(where, sql` and `);
  const keyset = opts.after
    ? sql` and ${after([sql`p.created_at`, sql`p.id`], [sql`${opts.after[0]}::timestamptz`, sql`${opts.after[1]}::uuid`], 'desc')}`
    : sql``;
  const row = ZRow.extend({ sorts: z.array(z.string()), total: z.number().nullable() });
  // The page's rows are picked from prescriptions alone, in the order its indexes hold them
  // (migration 0032: DESC NULLS LAST; a bare DESC is NULLS FIRST, which no index serves), and only
  // they are joined to the names: otherwise the planner sorted every match (100,000: 300 ms).
  const rows = await rowsOf(
    q,
    row,
    sql`with picked as (
      select p.id from prescriptions p where ${filter}${keyset}
      order by p.created_at desc nulls last, p.id desc nulls last limit ${opts.limit + 1}
    )
    select ${COLUMNS}, json_build_array(${cursorInstantText(sql`p.created_at`)}, p.id::text) as sorts,
      ${opts.after ? sql`null::int` : sql`(select count(*)::int from (select 1 from prescriptions p where ${filter} limit ${COUNT_CAP + 1}) counted)`} as total
    from picked join prescriptions p on p.id = picked.id ${JOINS}
    order by p.created_at desc, p.id desc`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => r.sorts);
  const counted = opts.after ? null : (rows[0]?.total ?? 0);
  return {
    items: page.map(({ sorts: _s, total: _t, ...p }) => served(p)),
    total: counted === null ? null : Math.min(counted, COUNT_CAP),
    totalCapped: counted !== null && counted > COUNT_CAP,
    nextCursor,
  };
}

/** One prescription in the caller's scope, or null. */
export async function readPrescription(q: Queryable, scope: ReadScope, id: string): Promise<TPrescription | null> {
  const [row] = await rowsOf(q, ZRow, sql`select ${COLUMNS} from prescriptions p ${JOINS} where p.id = ${id}::uuid and ${scope.prescriptions}`);
  return row ? served(row) : null;
}

/** The row, locked until the transaction ends: two signatures, or a signature and a discard, queue. */
export async function lockPrescription(q: Queryable, id: string) {
  const [row] = await q.select().from(prescriptions).where(eq(prescriptions.id, id)).for('update');
  return row ?? null;
}
export type TPrescriptionRow = NonNullable<Awaited<ReturnType<typeof lockPrescription>>>;

const ZDrugRow = z.object({
  id: z.string().uuid(),
  name: z.string(),
  ingredients: z.array(z.string()),
  strength: z.string().nullable(),
  atc: z.string().nullable(),
  schedule: z.string().nullable(),
  isActive: z.boolean(),
  maxDailyDose: z.number().nullable(),
  maxDailyDoseUnit: z.string().nullable(),
});
export type TFormularyDrug = z.infer<typeof ZDrugRow>;

/** A formulary item as a prescription takes it, retired ones included (the caller refuses those). */
export async function formularyDrug(q: Queryable, id: string): Promise<TFormularyDrug | null> {
  const [row] = await rowsOf(
    q,
    ZDrugRow,
    sql`select id, name, ingredients, strength, atc, schedule, is_active as "isActive", max_daily_dose as "maxDailyDose",
      max_daily_dose_unit as "maxDailyDoseUnit"
    from formulary_items where id = ${id}::uuid`,
  );
  return row ?? null;
}

export const checkedDrug = (drug: TFormularyDrug): TCheckedDrug => ({
  name: drug.name,
  ingredients: drug.ingredients,
  atc: drug.atc,
  maxDailyDose: drug.maxDailyDose !== null && drug.maxDailyDoseUnit ? { value: drug.maxDailyDose, unit: drug.maxDailyDoseUnit } : null,
});

const ZAllergyRow = z.object({ name: z.string(), kind: z.enum(SUBSTANCE_KINDS), code: z.string().nullable(), status: z.enum(ALLERGY_STATUSES) });
const ZOtherRow = z.object({
  name: z.string(),
  ingredients: z.array(z.string()).nullable(),
  atc: z.string().nullable(),
  from: z.enum(['medication', 'prescription']),
});

/** A free-text name's words and runs of two and three words, lower case: what an ingredient's name ('ferrous sulfate') may be. */
function gramsOf(name: string): string[] {
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return [...new Set(words.flatMap((_, i) => [1, 2, 3].filter((n) => i + n <= words.length).map((n) => words.slice(i, i + n).join(' '))))];
}

/** Which of these words and runs of words are an ingredient of the formulary, found through its ingredients' GIN index. */
async function knownIngredients(q: Queryable, grams: string[]): Promise<Set<string>> {
  if (grams.length === 0) return new Set();
  const asArray = `{${grams.map((g) => `"${g}"`).join(',')}}`;
  const rows = await rowsOf(
    q,
    z.object({ i: z.string() }),
    sql`select distinct i from formulary_items, unnest(ingredients) i where ingredients && ${asArray}::text[] and i = any(${asArray}::text[])`,
  );
  return new Set(rows.map((r) => r.i));
}

/**
 * What the checks weigh a prescription against, read in one go: her allergies (every status: the
 * checks keep the active), her statement of none, and the other drugs she takes: the medication
 * list's active entries and the drafts not yet on it (a signed prescription is on the list by its
 * entry). `excluding` leaves out prescriptions and their entries: the one being edited, and the
 * one it renews or replaces. A free-text medication's ingredients are the formulary's ingredient
 * names its words hold, so 'Coumadin (warfarin) 5 mg' still meets an NSAID: looked up by those
 * words in the ingredients' index, not by scanning the formulary.
 */
export async function checkContext(q: Queryable, patientId: string, excluding: readonly string[]) {
  const allergies = await rowsOf(
    q,
    ZAllergyRow,
    sql`select substance_name as name, substance_kind as kind, substance_code as code, status from patient_allergies where patient_id = ${patientId}::uuid`,
  );
  const [statement] = await rowsOf(
    q,
    z.object({ value: z.enum(ALLERGY_ASSESSMENTS).nullable() }),
    sql`select allergy_statement as value from patients where id = ${patientId}::uuid`,
  );
  // No null in it: `id = any(array[null])` is null, not false, and would hide every row.
  const skip =
    excluding.length > 0
      ? sql`array[${sql.join(
          excluding.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}]`
      : sql`'{}'::uuid[]`;
  const rows = await rowsOf(
    q,
    ZOtherRow,
    sql`select m.name, f.ingredients, f.atc, 'medication' as "from"
    from patient_medications m left join formulary_items f on f.id = m.formulary_id
    where m.patient_id = ${patientId}::uuid and m.status = 'active'
      and not exists (select 1 from prescriptions x where x.medication_entry_id = m.id and x.id = any(${skip}))
    union all
    select p.medication_name, f.ingredients, f.atc, 'prescription'
    from prescriptions p join formulary_items f on f.id = p.formulary_id
    where p.patient_id = ${patientId}::uuid and p.status = 'draft' and not (p.id = any(${skip}))`,
  );
  const known = await knownIngredients(q, [...new Set(rows.filter((r) => r.ingredients === null).flatMap((r) => gramsOf(r.name)))]);
  const others = rows.map((r) => ({ ...r, ingredients: r.ingredients ?? gramsOf(r.name).filter((g) => known.has(g)) }));
  return { allergies: allergies satisfies TCheckedAllergy[], allergyStatement: statement?.value ?? null, others: others satisfies TOtherDrug[] };
}
