import type { FastifyInstance } from 'fastify';
import type { TAuditAction, TAuditEntityType } from '#domain/audit';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { loggableError } from '../http/loggable-error.ts';
import { visitorContextOf } from '../http/request-context.ts';
import { recordAudit, type TAuditOutcome } from '../audit/audit-writer.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Records refused attempts on this route's records in the audit trail: who (or nobody),
     * from where, which id, and why (401, 403, or 404 for an id that does not exist or is out
     * of the caller's scope). What is allowed, the service records itself, with the change.
     */
    audit?: { action: TAuditAction; entityType: TAuditEntityType };
  }
}

const OUTCOME: Record<number, Exclude<TAuditOutcome, 'allowed'>> = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' };

/**
 * Part of the module shape: a route declares `config.audit`, and every refusal on it leaves a
 * row, whether the auth hook refused it before the handler or the service found no record.
 * Written before the answer leaves (onSend, not onResponse): whoever gets the refusal can
 * rely on the row being there, and a crash right after the answer cannot lose it.
 */
export const auditRefusalsPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const audit = request.routeOptions.config?.audit;
    const outcome = OUTCOME[reply.statusCode];
    if (!audit || !outcome) return payload;
    const target = (request.params as { id?: unknown } | undefined)?.id;
    const id = typeof target === 'string' ? target.slice(0, 100) : null;
    const aboutPatient = audit.entityType === 'patient' && z.uuid().safeParse(id).success;
    await recordAudit(opts.db, visitorContextOf(request), {
      action: audit.action,
      entityType: audit.entityType,
      entityId: id,
      patientId: aboutPatient ? id : null,
      outcome,
    }).catch((error: unknown) => request.log.error({ err: loggableError(error) }, 'could not record a refused attempt'));
    return payload;
  });
});
