import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TPatient } from '#domain/patients';
import { z } from 'zod';
import { preparedRows, queryRows, type Queryable } from '../../db/database.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { patients } from '../../db/schema/clinical.ts';

/**
 * A patients row, as the query builder reads it or as a hand-written query does (which selects
 * PATIENT_SQL_COLUMNS, under the same names; its timestamps may arrive as text).
 */
type PatientRow = Omit<typeof patients.$inferSelect, 'createdAt' | 'updatedAt'> & { createdAt: Date | string; updatedAt: Date | string };

/** The patients columns under their field names; the date as text, since a driver may turn a bare date into a local-midnight Date. */
const PATIENT_SQL_COLUMNS = sql.raw(`id, first_name as "firstName", last_name as "lastName",
  date_of_birth::text as "dateOfBirth", email, phone, address, emergency_contact as "emergencyContact",
  emergency_phone as "emergencyPhone", insurance_provider as "insuranceProvider",
  insurance_number as "insuranceNumber", medical_history as "medicalHistory", allergies,
  current_medications as "currentMedications", is_active as "isActive", created_at as "createdAt",
  updated_at as "updatedAt"`);

const isoOf = (v: Date | string) => new Date(v).toISOString();

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
  isActive: r.isActive,
  createdAt: isoOf(r.createdAt),
  updatedAt: isoOf(r.updatedAt),
});

/** The sort key a cursor holds: lower-cased last name, first name, then id. */
const ZPatientCursor = z.tuple([ZCursorText, ZCursorText, ZCursorUuid]);
export type TPatientCursor = z.infer<typeof ZPatientCursor>;
export const decodePatientCursor = (raw: string): TPatientCursor => decodeCursor(raw, ZPatientCursor);

/** `%`, `_` and `\` in a search term are literal characters, not patterns. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Terms shorter than a trigram cannot use the trigram indexes. */
export const TRIGRAM_MIN_LENGTH = 3;
/**
 * Up to this many matches, a page is taken from the trigram matches and sorted (cost grows with
 * the matches). Past it, matches are dense enough that walking the name-order index finds a page
 * quickly. Walking is what goes wrong for a rare term whose matches sit late in the alphabet.
 */
const SELECTIVE_MATCHES = 5000;

/**
 * Active patients whose first name, last name or email contains the term, case-insensitively.
 * Each ILIKE can use its trigram index when the term has three or more characters.
 */
function activeMatching(search: string | undefined): SQL {
  const active = eq(patients.isActive, true);
  if (!search) return active;
  const p = likePattern(search);
  return and(active, sql`(${patients.firstName} ilike ${p} or ${patients.lastName} ilike ${p} or ${patients.email} ilike ${p})`)!;
}


/**
 * One page of active patients in name order, and (given `audit`) the audit row recording who
 * was shown it, in one statement: a single round trip, and the row lands with the read or not
 * at all.
 */
export async function listPatientsAudited(q: Queryable, audit: { head: SQL; tail: SQL } | null, opts: {
  search?: string | undefined; limit: number; after?: TPatientCursor | null; matches?: number | null;
}) {
  const viaMatches = opts.matches != null && opts.matches <= SELECTIVE_MATCHES;
  // The same order either way; `|| ''` changes no value but keeps the name-order index from
  // serving it, so the planner filters through the trigram indexes and sorts the few matches.
  const lastKey = viaMatches ? sql`lower(last_name) || ''` : sql`lower(last_name)`;
  const conditions = [activeMatching(opts.search)];
  if (opts.after) {
    const [lastName, firstName, id] = opts.after;
    conditions.push(after([lastKey, sql`lower(first_name)`, sql`id`], [sql`${lastName}`, sql`${firstName}`, sql`${id}::uuid`]));
  }
  // The sort keys come from the database so the cursor compares exactly as the database orders.
  const statement = sql`
    with page as (
      select ${PATIENT_SQL_COLUMNS}, lower(last_name) as sort_last, lower(first_name) as sort_first from patients
      where ${and(...conditions)}
      order by ${lastKey}, lower(first_name), id
      limit ${opts.limit + 1}
    )${audit ? sql`, shown as (
      select array_agg(id order by sort_last, sort_first, id) as ids
      from (select id, sort_last, sort_first from page order by sort_last, sort_first, id limit ${opts.limit}) first_rows
    ), recorded as (
      insert into audit_events (actor_id, action, entity_type, patient_ids, ip, user_agent)
      select ${audit.head}, ids, ${audit.tail} from shown where ids is not null
    )` : sql``}
    select * from page order by sort_last, sort_first, id`;
  // Without a term the plan is always the name-order index walk, so it can be prepared; a
  // search's best plan depends on its term.
  type TRow = PatientRow & { sort_last: string; sort_first: string };
  const rows = opts.search ? await queryRows<TRow>(q, statement) : await preparedRows<TRow>(q, 'patients_page', statement);
  return takePage(rows, opts.limit, (r) => [r.sort_last, r.sort_first, r.id]);
}

export async function countPatients(q: Queryable, search: string | undefined): Promise<number> {
  const [row] = await q.select({ n: sql<number>`count(*)::int` }).from(patients).where(activeMatching(search));
  return row?.n ?? 0;
}

export async function findPatient(q: Queryable, id: string): Promise<PatientRow | null> {
  const [row] = await q.select().from(patients).where(eq(patients.id, id)).limit(1);
  return row ?? null;
}

/** Patients with the same first and last name (any case) and date of birth. */
export async function findPossibleDuplicates(q: Queryable, p: { firstName: string; lastName: string; dateOfBirth: string | null }) {
  if (!p.dateOfBirth) return [];
  return queryRows<{ id: string; firstName: string; lastName: string; dateOfBirth: string | null }>(q, sql`
    select id, first_name as "firstName", last_name as "lastName", date_of_birth::text as "dateOfBirth"
    from patients
    where lower(last_name) = lower(${p.lastName}) and lower(first_name) = lower(${p.firstName})
      and date_of_birth = ${p.dateOfBirth}::date
    limit 5`);
}
