import { and, eq, sql, type SQL } from 'drizzle-orm';
import { LAB_SEXES } from '#domain/lab-flags';
import type { TPatient } from '#domain/patients';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { preparedRowsOf, rowDay, rowId, rowsOf, rowTimestamp } from '../../db/typed-rows.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { patients } from '../../db/schema/clinical.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/** A patients row, as the query builder reads it or as a hand-written query does (PATIENT_SQL_COLUMNS, under the same names). */
type PatientRow = Omit<typeof patients.$inferSelect, 'restrictedAt' | 'restrictedBy' | 'allergyStatement' | 'allergyStatedAt' | 'allergyStatedById'> & {
  restrictedAt?: Date | null;
};

const text = z.string().nullable();
/** PATIENT_SQL_COLUMNS' row, checked (server/db/typed-rows.ts). */
const ZPatientRow = z.object({
  id: rowId,
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: rowDay.nullable(),
  email: text,
  phone: text,
  address: text,
  emergencyContact: text,
  emergencyPhone: text,
  insuranceProvider: text,
  insuranceNumber: text,
  medicalHistory: text,
  allergies: text,
  currentMedications: text,
  sex: z.enum(LAB_SEXES).nullable(),
  isActive: z.boolean(),
  createdAt: rowTimestamp,
  updatedAt: rowTimestamp,
  restrictedAt: rowTimestamp.nullable(),
}) satisfies z.ZodType<PatientRow>;

/** The patients columns under their field names; the date as text, since a driver may turn a bare date into a local-midnight Date. */
const PATIENT_SQL_COLUMNS = sql.raw(`id, first_name as "firstName", last_name as "lastName",
  date_of_birth::text as "dateOfBirth", email, phone, address, emergency_contact as "emergencyContact",
  emergency_phone as "emergencyPhone", insurance_provider as "insuranceProvider",
  insurance_number as "insuranceNumber", medical_history as "medicalHistory", allergies,
  current_medications as "currentMedications", sex, is_active as "isActive", created_at as "createdAt",
  updated_at as "updatedAt", restricted_at as "restrictedAt"`);

export const toPatient = (r: PatientRow): TPatient => ({
  id: r.id,
  firstName: r.firstName,
  lastName: r.lastName,
  dateOfBirth: r.dateOfBirth,
  email: r.email,
  phone: r.phone,
  address: r.address,
  emergencyContact: r.emergencyContact,
  emergencyPhone: r.emergencyPhone,
  insuranceProvider: r.insuranceProvider,
  insuranceNumber: r.insuranceNumber,
  medicalHistory: r.medicalHistory,
  allergies: r.allergies,
  currentMedications: r.currentMedications,
  sex: r.sex,
  isActive: r.isActive,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  restricted: r.restrictedAt !== null && r.restrictedAt !== undefined,
});

/** The sort key a cursor holds: lower-cased last name, first name, then id. */
const ZPatientCursor = z.tuple([ZCursorText, ZCursorText, ZCursorUuid]);
export type TPatientCursor = z.infer<typeof ZPatientCursor>;
export const decodePatientCursor = (raw: string): TPatientCursor => decodeCursor(raw, ZPatientCursor);

/**
 * Name order, the order of every patient list: lower-cased last name, first name, then id,
 * compared byte by byte, as the indexes of migration 0013 hold it.
 */
export const LAST_KEY = sql.raw(`(lower(last_name) collate "C")`);
export const FIRST_KEY = sql.raw(`(lower(first_name) collate "C")`);

/** `and` the rows after `key` in name order (the list's cursor, and a search tier's), or nothing. */
export const andAfterName = (key: readonly [last: string, first: string, id: string] | null): SQL =>
  key ? sql`and ${after([LAST_KEY, FIRST_KEY, sql`id`], [sql`${key[0]}`, sql`${key[1]}`, sql`${key[2]}::uuid`])}` : sql``;

/**
 * One page of active patients in name order (the list with no search), read through the
 * name-order index from the cursor on.
 */
export async function listPatients(
  q: Queryable,
  scope: Pick<ReadScope, 'patientRowSeen' | 'restrictedReach'>,
  opts: { limit: number; after?: TPatientCursor | null },
) {
  const row = ZPatientRow.extend({ sort_last: z.string(), sort_first: z.string() });
  const statement = sql`
    select ${PATIENT_SQL_COLUMNS}, ${LAST_KEY} as sort_last, ${FIRST_KEY} as sort_first from patients
    where is_active and ${scope.patientRowSeen(sql`patients`)} ${andAfterName(opts.after ?? null)}
    order by ${LAST_KEY}, ${FIRST_KEY}, id
    limit ${opts.limit + 1}`;
  // The plan is always the index walk whatever the values, so it is prepared once per connection
  // (for a reader who reaches restricted patients the statement differs: planned each time).
  const rows = scope.restrictedReach ? await rowsOf(q, row, statement) : await preparedRowsOf(q, row, 'patients_page', statement);
  return takePage(rows, opts.limit, (r) => [r.sort_last, r.sort_first, r.id]);
}

/** Rows in the order of `ids` (a statement's rows come in any order). */
function inOrderOf(ids: string[], rows: PatientRow[]): PatientRow[] {
  const position = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

const idArrayOf = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/**
 * The active patients with these ids that the reader sees, in the order given: a page shared by
 * many readers, each of whom writes her own audit row through her reader.
 */
export async function readPatients(q: Queryable, ids: string[], seen: ReadScope['patientRowSeen']): Promise<PatientRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsOf(
    q,
    ZPatientRow,
    sql`select ${PATIENT_SQL_COLUMNS} from patients where id = any(${idArrayOf(ids)}) and is_active and ${seen(sql`patients`)}`,
  );
  return inOrderOf(ids, rows);
}

/**
 * The active patients with these ids, in the order given, and the audit row recording who was
 * shown them, in one statement: the row lands with the read or not at all.
 */
export async function readPatientsAudited(
  q: Queryable,
  audit: { head: SQL; tail: (patientIds: SQL) => SQL },
  ids: string[],
  seen: ReadScope['patientRowSeen'],
): Promise<PatientRow[]> {
  if (ids.length === 0) return [];
  const idArray = idArrayOf(ids);
  const rows = await rowsOf(
    q,
    ZPatientRow,
    sql`
    with shown as (select ${PATIENT_SQL_COLUMNS} from patients where id = any(${idArray}) and is_active and ${seen(sql`patients`)}),
    recorded as (
      insert into audit_events (actor_id, action, entity_type, patient_ids, ip, user_agent, break_glass_id)
      select ${audit.head}, array(select u.id from unnest(${idArray}) with ordinality as u(id, n) where u.id in (select id from shown) order by u.n),
        ${audit.tail(sql`array(select id from shown)`)}
      where exists (select 1 from shown)
    )
    select * from shown`,
  );
  return inOrderOf(ids, rows);
}

/** Whether a patient exists and is restricted: the answer to someone outside her reach (403, not 404: she may break the glass). */
export async function isRestrictedPatient(q: Queryable, id: string): Promise<boolean> {
  const rows = await rowsOf(q, z.object({ one: z.number() }), sql`select 1 as one from patients where id = ${id}::uuid and restricted_at is not null`);
  return rows.length > 0;
}

/** A patient the reader sees, or null (none, or restricted outside her reach). */
export async function findSeenPatient(q: Queryable, seen: ReadScope['patientRowSeen'], id: string): Promise<PatientRow | null> {
  const [row] = await q
    .select()
    .from(patients)
    .where(and(eq(patients.id, id), seen(sql`patients`)))
    .limit(1);
  return row ?? null;
}

export type TPossibleDuplicate = { id: string; firstName: string; lastName: string; dateOfBirth: string | null };

/**
 * Patients with the same first and last name (any case) and date of birth: those the reader
 * sees, and the ids of those she does not (restricted outside her reach), which are never shown
 * to her.
 */
export async function findPossibleDuplicates(
  q: Queryable,
  seen: ReadScope['patientRowSeen'],
  p: { firstName: string; lastName: string; dateOfBirth: string | null },
): Promise<{ shown: TPossibleDuplicate[]; unseen: string[] }> {
  if (!p.dateOfBirth) return { shown: [], unseen: [] };
  const rows = await rowsOf(
    q,
    z.object({ id: rowId, firstName: z.string(), lastName: z.string(), dateOfBirth: rowDay.nullable(), seen: z.boolean() }),
    sql`
    select p.id, p.first_name as "firstName", p.last_name as "lastName", p.date_of_birth::text as "dateOfBirth", ${seen(sql`p`)} as seen
    from patients p
    where lower(p.last_name) = lower(${p.lastName}) and lower(p.first_name) = lower(${p.firstName})
      and p.date_of_birth = ${p.dateOfBirth}::date
    limit 5`,
  );
  return { shown: rows.filter((r) => r.seen).map(({ seen: _seen, ...r }) => r), unseen: rows.filter((r) => !r.seen).map((r) => r.id) };
}
