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

export const SQL_STATE = {
  exclusionViolation: '23P01',
  /** statement_timeout ran out, or pg_cancel_backend stopped the statement. */
  queryCanceled: '57014',
} as const;
