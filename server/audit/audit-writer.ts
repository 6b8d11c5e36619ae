import { sql, type SQL } from 'drizzle-orm';
import type { TAuditAction, TAuditEntityType, TAuditOutcome, TChangeAction } from '#domain/audit';
import { preparedRows, type Queryable } from '../db/database.ts';
import type { RequestContext } from '../http/request-context.ts';

/** A row of the trail. */
export interface AuditRow {
  action: TAuditAction;
  entityType: TAuditEntityType;
  entityId?: string | null;
  /** The one patient the event concerns. */
  patientId?: string | null;
  /** Every patient a list showed: one row for the request, still found by "who saw patient X". */
  patientIds?: string[];
  /** Absent for what was allowed; otherwise why the attempt was refused. */
  outcome?: TAuditOutcome;
}

/**
 * What a service records: a change (or a refused sign-in), or a refusal of any route. An
 * allowed read is not among them: the scoped reader (server/scope/reader.ts) records those.
 */
export type AuditEvent = (AuditRow & { action: TChangeAction }) | (AuditRow & { outcome: Exclude<TAuditOutcome, 'allowed'> });

export type { TAuditOutcome };

/**
 * Appends to the audit trail, as the caller of the request context. Call it with the same
 * transaction as the change it records, so a change and its record land together or not at all.
 */
export function recordAudit(q: Queryable, ctx: RequestContext, events: AuditEvent | AuditEvent[]): Promise<void> {
  return writeAuditRows(q, ctx, Array.isArray(events) ? events : [events]);
}

/** The insert itself. Only this file and the scoped reader write rows (ESLint holds the line). */
export async function writeAuditRows(q: Queryable, ctx: RequestContext, list: AuditRow[]): Promise<void> {
  if (list.length === 0) return;
  // Hand-written and prepared: it runs on every read of patient data, and building it with the
  // query builder cost more than the insert (a tenth of a hot list request).
  const rows = list.map(
    (e) => sql`(${ctx.user?.id ?? null}::uuid, ${e.action}, ${e.entityType}, ${e.entityId ?? null},
    ${e.patientId ?? null}::uuid, ${e.patientIds ? `{${e.patientIds.join(',')}}` : null}::uuid[], ${e.outcome ?? 'allowed'},
    ${ctx.ip}, ${ctx.userAgent?.slice(0, 500) ?? null})`,
  );
  await preparedRows(
    q,
    'record_audit',
    sql`
    insert into audit_events (actor_id, action, entity_type, entity_id, patient_id, patient_ids, outcome, ip, user_agent)
    values ${sql.join(rows, sql`, `)}`,
  );
}

/**
 * The caller's columns of an audit row (actor_id, action, entity_type), then ip and user_agent
 * at the end, for a statement that writes its audit row itself: `insert into audit_events
 * (actor_id, action, entity_type, <yours>, ip, user_agent) select <this>...`. Used where the
 * read and its record must be one round trip (lists).
 */
export function auditColumns(ctx: RequestContext, action: TAuditAction, entityType: TAuditEntityType): { head: SQL; tail: SQL } {
  return { head: sql`${ctx.user?.id ?? null}::uuid, ${action}, ${entityType}`, tail: sql`${ctx.ip}, ${ctx.userAgent?.slice(0, 500) ?? null}` };
}
