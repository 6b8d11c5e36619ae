/**
 * The SQLSTATE of a database error, wherever it sits in the cause chain (drizzle wraps the
 * driver's error; node-postgres and PGlite both report the five characters as `code`).
 */
export function sqlStateOf(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** Node's codes for a connection refused, dropped or timed out on its way to the server. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres's words for a connection that ended under a query (it gives them no code). */
const CONNECTION_LOST =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/**
 * Whether an error says the database is away rather than that the request was wrong: its
 * connection refused, dropped or ended by the server (a restart: 57P01 admin shutdown, 57P02
 * crash shutdown, 57P03 cannot connect now; class 08 connection exceptions). The request is
 * answered 503 with Retry-After: the pool opens new connections once the server is back.
 */
export function isDatabaseAway(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (/^(08...|57P0[123])$/.test(code) || CONNECTION_CODES.has(code))) return true;
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
  }
  return false;
}

/** Whether an error says the disk is full or read-only (53100 disk_full from PostgreSQL; ENOSPC, EDQUOT, EROFS from a file written here). */
export function isStorageFull(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '53100' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') return true;
  }
  return false;
}

/**
 * Whether the database gave up on a transaction only because of another one running beside it:
 * 40P01 (a deadlock: PostgreSQL aborts one of two transactions that wait on each other, as two
 * writes of clashing rows under an exclusion constraint can) or 40001 (a serialization failure).
 * Nothing of it was kept, and the same work run again normally succeeds (db/transaction.ts).
 */
export function isTransientConflict(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SQL_STATE.deadlockDetected || state === SQL_STATE.serializationFailure;
}

export const SQL_STATE = {
  deadlockDetected: '40P01',
  serializationFailure: '40001',
  exclusionViolation: '23P01',
  /** statement_timeout ran out, or pg_cancel_backend stopped the statement. */
  queryCanceled: '57014',
} as const;
