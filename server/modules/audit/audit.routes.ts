import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAuditActions,
  ZAuditChainCheck,
  ZAuditChainCheckWithHead,
  ZAuditExportQuery,
  ZAuditListQuery,
  ZAuditRows,
  ZSignedAuditHead,
  ZVerifyWithHead,
} from '#domain/audit';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendCsvFile } from '../../http/csv.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { verifyAuditChain } from './audit-chain.ts';
import { runAuditSealer } from '../../audit/audit-sealer.ts';
import { findSavedHead, type AuditHeadSigner } from '../../audit/audit-head.ts';
import { reader } from '../../scope/reader.ts';
import { AUDIT_READS, listActions, signedHead } from './audit.service.ts';

/** The audit trail for admins (issue 20): its rows, their CSV export, and the check of its chain. */
export const auditRoutes: FastifyPluginAsyncZod<Deps & { headSigner: AuditHeadSigner }> = async (app, deps) => {
  runAuditSealer(app, deps.db, deps.config.auditSealEveryMs);

  app.get(
    '/api/admin/audit',
    {
      config: { access: 'audit.read', audit: AUDIT_READS.list },
      schema: {
        description:
          'The audit trail, newest first by seq, filtered; paged by x-next-cursor. A patient filter also finds the list requests that showed the patient.',
        querystring: ZAuditListQuery,
        response: { 200: ZAuditRows, ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(AUDIT_READS.list, request.query)),
  );

  app.get(
    '/api/admin/audit/actions',
    {
      config: { access: 'audit.read', audit: { action: 'audit.actions', entityType: 'audit' } },
      schema: { description: 'Every action the audit trail holds, for the filter.', response: { 200: ZAuditActions, ...errorResponses } },
    },
    async () => listActions(deps),
  );

  app.get(
    '/api/admin/audit/export.csv',
    {
      config: { access: 'audit.read', audit: AUDIT_READS.export },
      schema: {
        description: 'The filtered audit trail as CSV (RFC 4180, formula cells made inert), streamed, with seq and hash for re-checking the chain.',
        querystring: ZAuditExportQuery,
        response: { 200: z.any().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => sendCsvFile(request, reply, await reader(deps, contextOf(request))(AUDIT_READS.export, request.query)),
  );

  app.get(
    '/api/admin/audit/verify',
    {
      config: { access: 'audit.read', audit: { action: 'audit.verify', entityType: 'audit' } },
      schema: {
        description:
          'Recomputes every link of the sealed audit chain and reports the first broken one, with the rows still waiting for the sealer (how many, and the oldest one).',
        response: { 200: ZAuditChainCheck, ...errorResponses },
      },
    },
    async () => verifyAuditChain(deps.db),
  );

  app.post(
    '/api/admin/audit/verify',
    {
      config: { access: 'audit.read', audit: { action: 'audit.verify', entityType: 'audit' } },
      schema: {
        description:
          'The same check, and a head saved earlier from /api/admin/audit/head looked for in the chain: still in it, cut from the end, rewritten, or not signed by this server.',
        body: ZVerifyWithHead,
        response: { 200: ZAuditChainCheckWithHead, ...errorResponses },
      },
    },
    async (request) => {
      const [check, savedHead] = await Promise.all([verifyAuditChain(deps.db), findSavedHead(deps.db, deps.headSigner, request.body.head)]);
      return { ...check, savedHead };
    },
  );

  app.get(
    '/api/admin/audit/head',
    {
      config: { access: 'audit.read', audit: { action: 'audit.head', entityType: 'audit' } },
      schema: {
        description:
          "The chain's head (the last sealed row's number and hash), signed with a key kept outside the database, as a file to keep where the database's users cannot write. 409 while nothing is sealed yet.",
        response: { 200: ZSignedAuditHead, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const head = await signedHead(deps, deps.headSigner);
      return reply.header('content-disposition', `attachment; filename="audit-head-${head.seq}.json"`).send(head);
    },
  );
};
