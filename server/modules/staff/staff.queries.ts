import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TRole } from '#domain/roles';
import type { TStaffMember } from '#domain/staff';
import { queryRows, type Queryable } from '../../db/database.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';

/** The sort key a cursor holds: last name, first name (lower-cased, blank when unknown), then id. */
const ZUserCursor = z.tuple([ZCursorText, ZCursorText, ZCursorUuid]);
export type TUserCursor = z.infer<typeof ZUserCursor>;
export const decodeUserCursor = (raw: string): TUserCursor => decodeCursor(raw, ZUserCursor);

const SORT_LAST = sql`lower(coalesce(last_name, ''))`;
const SORT_FIRST = sql`lower(coalesce(first_name, ''))`;

/** One page of users in name order: the columns to read and the conditions to meet. */
export async function pageOfUsers<T>(q: Queryable, columns: SQL, where: SQL[], limit: number, cursor: TUserCursor | null) {
  const conditions = [...where];
  if (cursor) conditions.push(after([SORT_LAST, SORT_FIRST, sql`id`], [sql`${cursor[0]}`, sql`${cursor[1]}`, sql`${cursor[2]}::uuid`]));
  const rows = await queryRows<T & { sort_last: string; sort_first: string; id: string }>(
    q,
    sql`
    select ${columns}, ${SORT_LAST} as sort_last, ${SORT_FIRST} as sort_first from users
    where ${conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`}
    order by ${SORT_LAST}, ${SORT_FIRST}, id
    limit ${limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.sort_last, r.sort_first, r.id]);
  return { items: page.map(({ sort_last: _l, sort_first: _f, ...item }) => item as unknown as T), nextCursor };
}

/** Active staff in name order, of one role or all: what a picker offers. No emails. */
export function listActiveStaff(q: Queryable, opts: { role?: TRole | undefined; limit: number; after: TUserCursor | null }) {
  const where = [sql`is_active`];
  if (opts.role) where.push(sql`role = ${opts.role}`);
  return pageOfUsers<TStaffMember>(q, sql`id, first_name as "firstName", last_name as "lastName", role`, where, opts.limit, opts.after);
}
