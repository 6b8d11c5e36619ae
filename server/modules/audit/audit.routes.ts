import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAuditChainCheck } from '#domain/audit';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { verifyAuditChain } from './audit-chain.ts';

/** The audit trail for admins (issue 20). So far: the check of its chain. */
export const auditRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/admin/audit/verify', {
    config: { access: 'audit.read', audit: { action: 'audit.verify', entityType: 'audit' } },
    schema: { description: 'Recomputes every link of the audit chain; reports the first broken one.', response: { 200: ZAuditChainCheck, ...errorResponses } },
  }, async () => verifyAuditChain(deps.db));
};
