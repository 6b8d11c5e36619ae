import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/database.ts';

/**
 * The user's break-glass grants running at `now`, by patient (issue 33): read per request, only
 * for a user whose session says she reaches a restricted patient at all, so that every audit
 * row of an access under a grant carries it.
 */
export async function activeGrants(q: Queryable, userId: string, now: Date): Promise<Map<string, string>> {
  const rows = await queryRows<{ patientId: string; id: string }>(
    q,
    sql`select patient_id as "patientId", id from break_glass_grants
    where user_id = ${userId}::uuid and started_at <= ${now.toISOString()}::timestamptz and expires_at > ${now.toISOString()}::timestamptz
    order by started_at`,
  );
  return new Map(rows.map((r) => [r.patientId, r.id]));
}
