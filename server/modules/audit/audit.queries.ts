import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/database.ts';
import { cursorInstantText } from '../../db/instant-text.ts';
import { auditEvents } from '../../db/schema/auth.ts';

/**
 * Every recorded access to one patient, newest first: events about the patient itself and the
 * list requests that showed them. One indexed query (patient_id, and the GIN index on
 * patient_ids), however many patients each list showed.
 */
export function auditTrailOfPatient(q: Queryable, patientId: string, action?: string) {
  const about = or(eq(auditEvents.patientId, patientId), sql`${auditEvents.patientIds} @> array[${patientId}]::uuid[]`);
  return q
    .select()
    .from(auditEvents)
    .where(action ? and(about, eq(auditEvents.action, action)) : about)
    .orderBy(desc(auditEvents.at));
}

/** The viewer's filters with the date range already turned into instants. */
export interface TAuditWhere {
  actorId?: string | undefined;
  patientId?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  /** at >= fromAt */
  fromAt?: Date | undefined;
  /** at < toAt, or at <= toAt when `toInclusive` (an exact instant was asked for). */
  toAt?: Date | undefined;
  toInclusive?: boolean;
}

/** An audit row as the viewer and the export read it, with the actor joined from users. */
export interface TAuditRowRead {
  seq: string;
  id: string;
  at: Date | string;
  /** `at` exactly as the chain's hash covers it (UTC, microseconds). */
  atExact: string;
  actorId: string | null;
  actorFirstName: string | null;
  actorLastName: string | null;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  outcome: string;
  entityType: string;
  entityId: string | null;
  patientId: string | null;
  patientIds: string | null;
  patientCount: number | null;
  ip: string | null;
  userAgent: string | null;
  hash: string | null;
}

function conditions(where: TAuditWhere): SQL[] {
  const c: SQL[] = [];
  if (where.actorId) c.push(sql`a.actor_id = ${where.actorId}::uuid`);
  // The GIN index on patient_ids and the btree on patient_id, combined (BitmapOr).
  if (where.patientId) c.push(sql`(a.patient_id = ${where.patientId}::uuid or a.patient_ids @> array[${where.patientId}]::uuid[])`);
  if (where.action) c.push(sql`a.action = ${where.action}`);
  if (where.outcome) c.push(sql`a.outcome = ${where.outcome}`);
  if (where.fromAt) c.push(sql`a.at >= ${where.fromAt.toISOString()}::timestamptz`);
  if (where.toAt) c.push(where.toInclusive ? sql`a.at <= ${where.toAt.toISOString()}::timestamptz` : sql`a.at < ${where.toAt.toISOString()}::timestamptz`);
  return c;
}

/**
 * One page of the trail, newest first by `seq` (the chain's order, gapless and unique, so a
 * keyset on it alone neither skips nor repeats a row; rows added meanwhile have higher numbers
 * and never push into later pages). `beforeSeq` is the last row of the previous page.
 */
export async function listAuditRows(q: Queryable, where: TAuditWhere, page: { limit: number; beforeSeq?: number | null }): Promise<TAuditRowRead[]> {
  const c = conditions(where);
  if (page.beforeSeq != null) c.push(sql`a.seq < ${page.beforeSeq}`);
  c.push(sql`a.seq is not null`);
  return queryRows<TAuditRowRead>(
    q,
    sql`
    select a.seq::text as seq, a.id, a.at,
      ${cursorInstantText(sql`a.at`)} as "atExact",
      a.actor_id as "actorId", u.first_name as "actorFirstName", u.last_name as "actorLastName",
      u.email as "actorEmail", u.role::text as "actorRole",
      a.action, a.outcome, a.entity_type as "entityType", a.entity_id as "entityId", a.patient_id as "patientId",
      array_to_string(a.patient_ids, ',') as "patientIds", cardinality(a.patient_ids) as "patientCount",
      a.ip, a.user_agent as "userAgent", a.hash
    from audit_events a
    left join users u on u.id = a.actor_id
    where ${sql.join(c, sql` and `)}
    order by a.seq desc
    limit ${page.limit}`,
  );
}

/**
 * Every action the trail holds, in order: a skip scan over the (action, seq) index, one probe
 * per distinct action instead of reading every row.
 */
export async function listAuditActions(q: Queryable): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    q,
    sql`
    with recursive actions(action) as (
      (select action from audit_events order by action limit 1)
      union all
      select (select e.action from audit_events e where e.action > actions.action order by e.action limit 1)
      from actions where actions.action is not null
    )
    select action from actions where action is not null`,
  );
  return rows.map((r) => r.action);
}

/** The last sealed row: the chain's head. */
export async function lastSealedRow(q: Queryable): Promise<{ seq: number; hash: string } | null> {
  const [row] = await queryRows<{ seq: string; hash: string }>(
    q,
    // Ordered by the column, not by the text it is answered as ('999' sorts after '2970').
    sql`select a.seq::text as seq, a.hash from audit_events a where a.seq is not null order by a.seq desc limit 1`,
  );
  return row ? { seq: Number(row.seq), hash: row.hash } : null;
}
