import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * What of a failure may reach the log. A failed query's error carries its parameters (a
 * searched name, a medical history, an insurance number) in its message, its stack's first
 * line and its `params`; the database's own message and detail can quote a value too. So a
 * database error is logged by its statement text (placeholders, no values), its SQLSTATE and
 * the names of the table, column and constraint involved, and its stack frames only.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const database = databaseFailure(error);
  if (!database) return { type: error.name, message: error.message, stack: error.stack };
  return { type: error.name, ...database, frames: stackFrames(error) };
}

interface TDatabaseFields {
  code?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  routine?: unknown;
  severity?: unknown;
}

function databaseFailure(error: Error): Record<string, unknown> | null {
  const query = error instanceof DrizzleQueryError ? error.query : null;
  const cause = (query !== null ? error.cause : error) as (Error & TDatabaseFields) | undefined;
  // node-postgres and PGlite both report a five-character SQLSTATE as `code`.
  const sqlState = typeof cause?.code === 'string' && /^[0-9A-Z]{5}$/.test(cause.code) ? cause.code : null;
  if (query === null && sqlState === null) return null;
  return { query, sqlState, table: cause?.table, column: cause?.column, constraint: cause?.constraint, routine: cause?.routine, causeType: cause?.name };
}

const stackFrames = (error: Error) =>
  (error.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');
