import { sql } from 'drizzle-orm';
import type { TBreakGlassGrant } from '#domain/restricted-records';
import { queryRows, type Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { fullName } from '../../db/user-name.ts';
import { activeUsersWith } from '../../db/users-with.ts';

const memberName = (alias: string) => sql`coalesce(${fullName(alias)}, ${sql.raw(alias)}.email)`;

/** The patient's restriction, locked until the transaction ends when asked (a change follows). */
export async function findRestriction(q: Queryable, patientId: string, lock = false): Promise<{ restrictedAt: Date | null } | null> {
  const [row] = await queryRows<{ restrictedAt: string | null }>(
    q,
    sql`select ${isoText(sql`restricted_at`)} as "restrictedAt" from patients where id = ${patientId}::uuid ${lock ? sql`for update` : sql``}`,
  );
  return row ? { restrictedAt: row.restrictedAt ? new Date(row.restrictedAt) : null } : null;
}

export function careTeamOf(q: Queryable, patientId: string) {
  return queryRows<{ id: string; name: string; role: TBreakGlassGrant['user']['role'] }>(
    q,
    sql`select u.id, ${memberName('u')} as name, u.role from patient_care_team t join users u on u.id = t.user_id
    where t.patient_id = ${patientId}::uuid order by u.last_name, u.first_name, u.id`,
  );
}

/** Of these ids, the active users whose role reads patient records: who may be on a care team. */
export const eligibleMembers = (q: Queryable, ids: string[]) => activeUsersWith(q, 'patients.read', ids);

export async function setRestrictedAt(q: Queryable, patientId: string, at: Date | null, by: string | null): Promise<void> {
  await q.execute(
    sql`update patients set restricted_at = ${at?.toISOString() ?? null}::timestamptz, restricted_by = ${by}::uuid where id = ${patientId}::uuid`,
  );
}

export async function replaceCareTeam(q: Queryable, patientId: string, userIds: string[], addedBy: string): Promise<void> {
  await q.execute(sql`delete from patient_care_team where patient_id = ${patientId}::uuid`);
  if (userIds.length === 0) return;
  await q.execute(sql`insert into patient_care_team (patient_id, user_id, added_by)
    select ${patientId}::uuid, u, ${addedBy}::uuid from unnest(${`{${userIds.join(',')}}`}::uuid[]) u`);
}

export async function insertGrant(
  q: Queryable,
  values: { patientId: string; userId: string; reason: string; justification: string; startedAt: Date; expiresAt: Date },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    q,
    sql`insert into break_glass_grants (patient_id, user_id, reason, justification, started_at, expires_at)
    values (${values.patientId}::uuid, ${values.userId}::uuid, ${values.reason}, ${values.justification},
      ${values.startedAt.toISOString()}::timestamptz, ${values.expiresAt.toISOString()}::timestamptz)
    returning id`,
  );
  return row!.id;
}

/** Ends the user's grant for the patient that runs now, at `now`; answers its id, or null when none runs. */
export async function endRunningGrant(q: Queryable, patientId: string, userId: string, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const [row] = await queryRows<{ id: string }>(
    q,
    // A window is never empty (break_glass_grants_window): one ended the millisecond it began ends one later.
    sql`update break_glass_grants set expires_at = greatest(${at}::timestamptz, started_at + interval '1 millisecond')
    where patient_id = ${patientId}::uuid and user_id = ${userId}::uuid and started_at <= ${at}::timestamptz and expires_at > ${at}::timestamptz
    returning id`,
  );
  return row?.id ?? null;
}

/** Grants in the review queue (open: not yet reviewed), newest first, with how many accesses each recorded. */
export function listGrants(q: Queryable, filter: { status: 'open' | 'closed' | 'all'; id?: string }): Promise<TBreakGlassGrant[]> {
  const status = filter.status === 'open' ? sql`g.reviewed_at is null` : filter.status === 'closed' ? sql`g.reviewed_at is not null` : sql`true`;
  return queryRows<TBreakGlassGrant>(
    q,
    sql`
    select g.id, g.patient_id as "patientId", 'Patient #' || right(g.patient_id::text, 4) as "patientRef",
      json_build_object('id', u.id, 'name', ${memberName('u')}, 'role', u.role) as "user",
      g.reason, g.justification, ${isoText(sql`g.started_at`)} as "startedAt", ${isoText(sql`g.expires_at`)} as "expiresAt",
      ${isoText(sql`g.reviewed_at`)} as "reviewedAt", ${memberName('r')} as "reviewedBy", g.disposition, g.review_note as "reviewNote",
      (select count(*)::int from audit_events a where a.break_glass_id = g.id) as accesses
    from break_glass_grants g
    join users u on u.id = g.user_id
    left join users r on r.id = g.reviewed_by
    where ${status} ${filter.id ? sql`and g.id = ${filter.id}::uuid` : sql``}
    order by g.started_at desc, g.id desc
    limit 200`,
  );
}

/** Closes a grant's review, once: false when it was reviewed already (or is unknown). */
export async function closeReview(q: Queryable, id: string, values: { by: string; at: Date; disposition: string; note: string | null }): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`update break_glass_grants set reviewed_at = ${values.at.toISOString()}::timestamptz, reviewed_by = ${values.by}::uuid,
      disposition = ${values.disposition}, review_note = ${values.note}
    where id = ${id}::uuid and reviewed_at is null returning id`,
  );
  return rows.length === 1;
}

/** Who manages restricted records: told of every break-glass at once. */
export const activeAdminIds = (q: Queryable) => activeUsersWith(q, 'patients.restrict');
