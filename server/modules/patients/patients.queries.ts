import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { TPatient } from '#domain/patients';
import { queryRows, type Queryable } from '../../db/database.ts';
import { patients } from '../../db/schema/clinical.ts';

type PatientRow = typeof patients.$inferSelect;

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
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Where the next page starts: the sort key of the last row (last name, first name, id). */
export interface PatientCursor {
  lastName: string;
  firstName: string;
  id: string;
}

export const encodeCursor = (c: PatientCursor) => Buffer.from(JSON.stringify([c.lastName, c.firstName, c.id])).toString('base64url');

export function decodeCursor(raw: string): PatientCursor | null {
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 3) return null;
    const [lastName, firstName, id] = v as unknown[];
    if (typeof lastName !== 'string' || typeof firstName !== 'string' || typeof id !== 'string') return null;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    return { lastName, firstName, id };
  } catch {
    return null;
  }
}

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

const sortLast = sql<string>`lower(${patients.lastName})`;
const sortFirst = sql<string>`lower(${patients.firstName})`;
// The same order, written so that the name-order index cannot serve it (`|| ''` changes no
// value); the planner then filters through the trigram indexes and sorts the few matches.
const sortLastUnindexed = sql`lower(${patients.lastName}) || ''`;

export async function listPatients(q: Queryable, opts: {
  search?: string | undefined; limit: number; after?: PatientCursor | null; matches?: number | null;
}) {
  const viaMatches = opts.matches != null && opts.matches <= SELECTIVE_MATCHES;
  const lastKey = viaMatches ? sortLastUnindexed : sortLast;
  const conditions = [activeMatching(opts.search)];
  if (opts.after) {
    conditions.push(sql`(${lastKey}, ${sortFirst}, ${patients.id}) > (${opts.after.lastName}, ${opts.after.firstName}, ${opts.after.id}::uuid)`);
  }
  // One row more than asked tells whether another page exists. The sort keys come from the
  // database so the cursor compares exactly as the database orders.
  const rows = await q.select({ ...getTableColumns(patients), sortLast, sortFirst })
    .from(patients).where(and(...conditions))
    .orderBy(lastKey, sortFirst, patients.id)
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  const next = rows.length > opts.limit && last ? { lastName: last.sortLast, firstName: last.sortFirst, id: last.id } : null;
  return { page, next };
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
