import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TInteractionPair } from '#domain/interaction-pairs';
import type { Queryable } from '../../db/database.ts';
import { clinicInteractionPairs } from '../../db/schema/prescriptions.ts';
import { rowsOf } from '../../db/typed-rows.ts';

type TPairRow = typeof clinicInteractionPairs.$inferSelect;
export type TClinicPair = Pick<TPairRow, 'id' | 'nameA' | 'ingredientsA' | 'nameB' | 'ingredientsB' | 'severity' | 'effect'>;

export const interactionPairOf = (row: TPairRow): TInteractionPair => ({
  id: row.id,
  nameA: row.nameA,
  ingredientsA: row.ingredientsA,
  nameB: row.nameB,
  ingredientsB: row.ingredientsB,
  severity: row.severity,
  effect: row.effect,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The clinic's pairs, active first, then by name. */
export async function listInteractionPairs(q: Queryable): Promise<TInteractionPair[]> {
  const p = clinicInteractionPairs;
  const rows = await q
    .select()
    .from(p)
    .orderBy(desc(p.isActive), sql`lower(${p.nameA})`, sql`lower(${p.nameB})`, p.id);
  return rows.map(interactionPairOf);
}

export async function lockInteractionPair(q: Queryable, id: string): Promise<TPairRow | null> {
  const [row] = await q.select().from(clinicInteractionPairs).where(eq(clinicInteractionPairs.id, id)).for('update');
  return row ?? null;
}

/** The pairs in force, as the checks weigh them: one small read per check. */
export function activeClinicPairs(q: Queryable): Promise<TClinicPair[]> {
  const p = clinicInteractionPairs;
  return q
    .select({ id: p.id, nameA: p.nameA, ingredientsA: p.ingredientsA, nameB: p.nameB, ingredientsB: p.ingredientsB, severity: p.severity, effect: p.effect })
    .from(p)
    .where(eq(p.isActive, true))
    .orderBy(p.createdAt, p.id);
}

/** Of these names, those no formulary item (offered or retired) holds as an ingredient; found through the ingredients' GIN index. */
export async function unknownIngredients(q: Queryable, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const list = sql`array[${sql.join(
    names.map((n) => sql`${n}`),
    sql`, `,
  )}]::text[]`;
  const known = await rowsOf(
    q,
    z.object({ name: z.string() }),
    sql`select distinct i as name from formulary_items, unnest(ingredients) i where ingredients && ${list} and i = any(${list})`,
  );
  const found = new Set(known.map((r) => r.name));
  return new Set(names.filter((n) => !found.has(n)));
}
