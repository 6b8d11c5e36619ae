import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { preparedRows, queryRows, type Queryable } from './database.ts';

/**
 * Raw SQL rows, each checked against a row schema (issue 49): a renamed or retyped column fails
 * here, in a test, instead of reaching a screen as `undefined`. The schema also settles what the
 * two engines hand back differently (a timestamp as a Date or as text, a bigint as text).
 * Hand-written queries in a module declare their row as `z.object({...})` from the pieces below.
 */
export async function rowsOf<S extends z.ZodType>(q: Queryable, row: S, query: SQL): Promise<z.output<S>[]> {
  return checked(row, await queryRows<unknown>(q, query));
}

/** The same, as a named prepared statement (database.ts, preparedRows: for hot reads whose plan does not depend on the values). */
export async function preparedRowsOf<S extends z.ZodType>(q: Queryable, row: S, name: string, query: SQL): Promise<z.output<S>[]> {
  return checked(row, await preparedRows<unknown>(q, name, query));
}

function checked<S extends z.ZodType>(row: S, rows: unknown[]): z.output<S>[] {
  return rows.map((r) => {
    const parsed = row.safeParse(r);
    if (parsed.success) return parsed.data;
    // Paths and expectations only: a row is patient data, and its values never reach a log.
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.code}`).join('; ');
    throw new Error(`A query's row does not match its schema: ${issues}`);
  });
}

/** A timestamp column: a Date from one engine, ISO text (a json aggregate, an engine's choice) from another. */
export const rowTimestamp = z.union([z.date(), z.string()]).transform((v) => (typeof v === 'string' ? new Date(v) : v));
/** `date::text`: YYYY-MM-DD, never a Date at the machine's midnight. */
export const rowDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A count or sum: `::int` gives a number; a bigint that was not cast arrives as text. */
export const rowCount = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().finite());
export const rowId = z.string();
