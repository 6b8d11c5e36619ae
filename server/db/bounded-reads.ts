import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { withStatementTimeout, type Db, type Queryable } from './database.ts';
import { SQL_STATE, sqlStateOf } from './sql-state.ts';

export interface TBounds {
  /** Each statement stops after this long. */
  timeoutMs: number;
  /** Aborts when nobody waits for the answer any more (the client went away). */
  signal?: AbortSignal | undefined;
  /** What to throw when a statement was stopped, by either. */
  stopped: () => Error;
  /** A long read over many rows (a report): its connections sort in memory and skip JIT (database.ts). */
  analytic?: boolean;
}

/**
 * Reads that must not run away with a connection: each statement `work` runs through the
 * queryable it is given stops after `timeoutMs`, and the running one is cancelled as soon as
 * `signal` aborts. Each statement commits on its own (no transaction to open, arm and close: that
 * was three round trips of a search's five, measured at a quarter of its throughput under load).
 * Statements start with a comment naming this call, so a cancel reaches only them, never what
 * the connection runs next.
 *
 * PostgreSQL only: PGlite runs one statement at a time inside this process and can neither time
 * out nor cancel one (docs/decisions/patient-search.md).
 */
export async function boundedReads<T>(db: Db, bounds: TBounds, work: (q: Queryable) => Promise<T>): Promise<T> {
  if (bounds.signal?.aborted) throw bounds.stopped();
  const tag = `/* bounded ${randomBytes(8).toString('hex')} */ `;
  const limited = withStatementTimeout(db, bounds.timeoutMs, { analytic: bounds.analytic ?? false });
  // Only `execute` (hand-written statements) exists on it: the statement must carry the tag.
  const tagged = { execute: (query: SQL) => limited.execute(sql`${sql.raw(tag)}${query}`) } as unknown as Queryable;
  const cancel = () =>
    void db
      .execute(
        sql`
    select pg_cancel_backend(pid) from pg_stat_activity
    where state = 'active' and pid <> pg_backend_pid() and starts_with(query, ${tag})`,
      )
      .catch(() => {});
  bounds.signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await work(tagged);
  } catch (error) {
    if (sqlStateOf(error) === SQL_STATE.queryCanceled) throw bounds.stopped();
    throw error;
  } finally {
    bounds.signal?.removeEventListener('abort', cancel);
  }
}
