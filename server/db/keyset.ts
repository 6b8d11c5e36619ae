import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { isBoundedTimestamp, unstorableTextReason } from '#domain/text';
import { invalid } from '../http/errors.ts';

/**
 * Keyset paging for every list: a page is the rows after the sort key of the previous page's
 * last row, so page 10 costs what page 1 does and rows added meanwhile are neither skipped nor
 * shown twice. The cursor is that sort key, as base64url JSON, opaque to the client.
 */

/** A text member of a cursor: it came from the client, so it is checked like any input. */
export const ZCursorText = z
  .string()
  .max(200)
  .refine((v) => unstorableTextReason(v) === null);
export const ZCursorUuid = z.string().uuid();
/**
 * An instant member of a cursor, as the lists write it (UTC, microseconds), and one PostgreSQL
 * can compare: a real day in the years every instant is held to, not 9999-99-99 or year 0000.
 */
export const ZCursorInstant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .refine(isBoundedTimestamp);

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key a cursor holds, or a 400 naming `cursor` when it is not one this list made. */
export function decodeCursor<T extends z.ZodTuple>(raw: string, shape: T): z.infer<T> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', 'Invalid cursor');
  }
  const parsed = shape.safeParse(value);
  if (!parsed.success) throw invalid('cursor', 'Invalid cursor');
  return parsed.data;
}

/**
 * `(a, b, c) > (x, y, z)`: rows after a sort key, in the order the columns are sorted (`<` for a
 * list sorted newest first, every column descending).
 */
export function after(columns: readonly SQL[], key: readonly SQL[], direction: 'asc' | 'desc' = 'asc'): SQL {
  return sql`(${sql.join([...columns], sql`, `)}) ${sql.raw(direction === 'asc' ? '>' : '<')} (${sql.join([...key], sql`, `)})`;
}

/**
 * Rows after a sort key whose columns run in different directions (most urgent first, then
 * oldest): `a < x or (a = x and (b > y or (b = y and c > z)))`, each column by its own direction.
 */
export function afterMixed(columns: readonly { column: SQL; direction: 'asc' | 'desc' }[], key: readonly SQL[]): SQL {
  const [first, ...rest] = columns;
  if (!first) return sql`false`;
  const beyond = sql`${first.column} ${sql.raw(first.direction === 'asc' ? '>' : '<')} ${key[0]}`;
  if (rest.length === 0) return sql`(${beyond})`;
  return sql`(${beyond} or (${first.column} = ${key[0]} and ${afterMixed(rest, key.slice(1))}))`;
}

/**
 * Splits the `limit + 1` rows a page query asked for into the page and the cursor of the next
 * one (the extra row only tells that another page exists).
 */
export function takePage<R>(rows: R[], limit: number, keyOf: (row: R) => readonly (string | number)[]): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
