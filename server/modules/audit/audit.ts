import type { Queryable } from '../../db/database.ts';
import { auditEvents } from '../../db/schema/auth.ts';

export interface AuditEvent {
  action: string;
  entityType: string;
  entityId?: string | null;
  patientId?: string | null;
}

export interface AuditActor {
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Appends to the audit trail. Call it with the same transaction as the change it records,
 * so a change and its record land together or not at all.
 */
export async function recordAudit(q: Queryable, actor: AuditActor, events: AuditEvent | AuditEvent[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return;
  await q.insert(auditEvents).values(list.map((e) => ({
    actorId: actor.userId,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId ?? null,
    patientId: e.patientId ?? null,
    ip: actor.ip,
    userAgent: actor.userAgent?.slice(0, 500) ?? null,
  })));
}

export const actorOf = (ctx: { user: { id: string } | null; ip: string; userAgent: string | null }): AuditActor => ({
  userId: ctx.user?.id ?? null,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});
