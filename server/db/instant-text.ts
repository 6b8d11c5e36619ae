import { sql, type SQL } from 'drizzle-orm';

/** An instant as the API writes it (UTC, milliseconds), made by the database so both engines agree. */
export const isoText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An instant as a keyset cursor holds it (UTC, microseconds, as the database orders), so the
 * next page starts exactly after the last row shown (keyset.ts ZCursorInstant reads it back).
 */
export const cursorInstantText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
