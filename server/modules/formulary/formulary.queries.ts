import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TConditionCode } from '#domain/condition-codes';
import type { TCatalogueQuery, TFormularyItem } from '#domain/formulary';
import type { TPage } from '#domain/paging';
import type { Queryable } from '../../db/database.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { escapeLike } from '../../db/like.ts';
import { conditionCodes, formularyItems } from '../../db/schema/chart.ts';

type TCatalogueTable = typeof formularyItems | typeof conditionCodes;

/**
 * One page of a catalogue editor's list, in `order`, after the cursor's row (`keyset`), with the
 * total on the first page: the one shape both lists share.
 */
async function catalogueList<R, T>(
  q: Queryable,
  table: TCatalogueTable,
  list: { filter: SQL; keyset: SQL | null; order: SQL[]; limit: number; keyOf: (row: R) => string[]; toEntry: (row: R) => T },
): Promise<TPage<T>> {
  const [rows, total] = await Promise.all([
    q
      .select()
      .from(table)
      .where(list.keyset ? sql`${list.filter} and ${list.keyset}` : list.filter)
      .orderBy(...list.order)
      .limit(list.limit + 1) as Promise<R[]>,
    list.keyset
      ? null
      : q
          .select({ n: sql<number>`count(*)::int` })
          .from(table)
          .where(list.filter)
          .then(([row]) => Number(row?.n ?? 0)),
  ]);
  const { page, nextCursor } = takePage(rows, list.limit, list.keyOf);
  return { items: page.map(list.toEntry), total, nextCursor };
}

const statusFilter = (status: TCatalogueQuery['status'], column: SQL) => (status === 'all' ? sql`true` : status === 'active' ? column : sql`not ${column}`);

const toItem = (row: typeof formularyItems.$inferSelect): TFormularyItem => ({
  id: row.id,
  name: row.name,
  ingredients: row.ingredients,
  strength: row.strength,
  doseForm: row.doseForm,
  route: row.route,
  rxcui: row.rxcui,
  atc: row.atc,
  schedule: row.schedule as TFormularyItem['schedule'],
  source: row.source,
  isActive: row.isActive,
  updatedAt: row.updatedAt.toISOString(),
});

const FORMULARY_CURSOR = z.tuple([ZCursorText, ZCursorUuid]);

/** The formulary by name: `q` finds a name's words, an RxNorm code, or an ATC code's start (J01C finds the penicillins). */
export async function listFormulary(q: Queryable, query: TCatalogueQuery): Promise<TPage<TFormularyItem>> {
  const t = formularyItems;
  const term = query.q?.toLowerCase() ?? null;
  const where = [statusFilter(query.status, sql`${t.isActive}`)];
  if (term)
    where.push(sql`(lower(${t.name}) like ${`%${escapeLike(term)}%`} or ${t.rxcui} = ${term} or ${t.atc} like ${`${escapeLike(term.toUpperCase())}%`})`);
  const cursor = query.cursor ? decodeCursor(query.cursor, FORMULARY_CURSOR) : null;
  return catalogueList(q, t, {
    filter: sql.join(where, sql` and `),
    keyset: cursor && after([sql`lower(${t.name})`, sql`${t.id}`], [sql`${cursor[0]}`, sql`${cursor[1]}::uuid`]),
    order: [sql`lower(${t.name})`, sql`${t.id}`],
    limit: query.limit,
    keyOf: (r: typeof t.$inferSelect) => [r.name.toLowerCase(), r.id],
    toEntry: toItem,
  });
}

export async function readFormularyItem(q: Queryable, id: string): Promise<TFormularyItem | null> {
  const [row] = await q.select().from(formularyItems).where(eq(formularyItems.id, id));
  return row ? toItem(row) : null;
}

export async function lockFormularyItem(q: Queryable, id: string) {
  const [row] = await q.select().from(formularyItems).where(eq(formularyItems.id, id)).for('update');
  return row ?? null;
}

/** Which of an item's unique keys another item already holds: its name (any case), its RxNorm code, or none. */
export async function clashingItem(q: Queryable, values: { name: string; rxcui: string | null }, id: string | null): Promise<'name' | 'rxcui' | null> {
  const t = formularyItems;
  const [row] = await q
    .select({ sameName: sql<boolean>`lower(${t.name}) = lower(${values.name})` })
    .from(t)
    .where(sql`(lower(${t.name}) = lower(${values.name}) or ${t.rxcui} = ${values.rxcui})${id ? sql` and ${t.id} <> ${id}::uuid` : sql``}`)
    .orderBy(sql`1 desc`)
    .limit(1);
  return row ? (row.sameName ? 'name' : 'rxcui') : null;
}

export const conditionCodeOf = (row: typeof conditionCodes.$inferSelect): TConditionCode => ({
  code: row.code,
  title: row.title,
  source: row.source,
  isActive: row.isActive,
  updatedAt: row.updatedAt.toISOString(),
});

const CONDITION_CURSOR = z.tuple([ZCursorText]);

/** The condition codes by code: `q` finds a code's start or a title's words. */
export async function listConditionCodes(q: Queryable, query: TCatalogueQuery): Promise<TPage<TConditionCode>> {
  const t = conditionCodes;
  const term = query.q?.toLowerCase() ?? null;
  const where = [statusFilter(query.status, sql`${t.isActive}`)];
  if (term) where.push(sql`(${t.code} like ${`${escapeLike(term.toUpperCase())}%`} or lower(${t.title}) like ${`%${escapeLike(term)}%`})`);
  const cursor = query.cursor ? decodeCursor(query.cursor, CONDITION_CURSOR) : null;
  return catalogueList(q, t, {
    filter: sql.join(where, sql` and `),
    keyset: cursor && sql`${t.code} > ${cursor[0]}`,
    order: [sql`${t.code}`],
    limit: query.limit,
    keyOf: (r: typeof t.$inferSelect) => [r.code],
    toEntry: conditionCodeOf,
  });
}

export async function lockConditionCode(q: Queryable, code: string) {
  const [row] = await q.select().from(conditionCodes).where(eq(conditionCodes.code, code)).for('update');
  return row ?? null;
}
