import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import {
  ZCheckPrescription,
  ZCreatePrescription,
  ZMovePrescription,
  ZPrescriber,
  ZPrescriberRightsInput,
  ZPrescription,
  ZPrescriptionAlert,
  ZPrescriptionListQuery,
  ZReplacePrescription,
  ZSignPrescription,
  ZSigningPrescriber,
  ZUpdatePrescription,
} from '#domain/prescriptions';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { sendDownload } from '../../http/download.ts';
import { PRINT_DRIVER } from './prescription-pdf.ts';
import { grantRights, prescribersFor, prescribersToName, revokeRights } from './prescribers.service.ts';
import {
  createPrescription,
  movePrescription,
  PRESCRIPTION_READS,
  printPrescription,
  replacePrescription,
  signPrescription,
  updatePrescription,
} from './prescriptions.service.ts';

const ZUserParams = z.object({ userId: z.string().uuid('Invalid user id') });
const ZParams = z.object({ id: z.string().uuid('Invalid prescription id') });
const user = { entityType: 'user' } as const;
const prescription = { entityType: 'prescription' } as const;

/**
 * Prescriptions (issue 52; docs/decisions/prescriptions.md): who may sign them, and their life
 * from draft to end. Who may do what is domain/permissions.ts; the moves, PRESCRIPTION_WORKFLOW.
 */
export const prescriptionRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/prescriptions',
    {
      config: { access: 'prescriptions.read', audit: PRESCRIPTION_READS.list },
      schema: {
        description: 'Prescriptions, newest first: drafts waiting for my signature, drafts I prepared, those in force, or all; of one patient with patientId.',
        querystring: ZPrescriptionListQuery,
        response: { 200: z.array(ZPrescription), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(PRESCRIPTION_READS.list, request.query)),
  );
  app.get(
    '/api/prescriptions/prescribers',
    {
      config: { access: 'prescriptions.prepare' },
      schema: {
        description: 'Whom a writer may name to sign: the prescribers whose rights stand, by name, and whether each signs controlled substances.',
        response: { 200: z.array(ZSigningPrescriber), ...errorResponses },
      },
    },
    async () => prescribersToName(deps),
  );
  app.get(
    '/api/prescriptions/:id',
    {
      config: { access: 'prescriptions.read', audit: PRESCRIPTION_READS.get },
      schema: { params: ZParams, response: { 200: ZPrescription, ...errorResponses } },
    },
    async (request) => reader(deps, contextOf(request))(PRESCRIPTION_READS.get, request.params.id),
  );
  app.post(
    '/api/prescriptions/check',
    {
      config: { access: 'prescriptions.prepare', audit: PRESCRIPTION_READS.check },
      schema: {
        description:
          "The checks of a prescription being written (allergy, duplicate therapy, interactions, dose) against the patient's chart, loudest first. Saves nothing.",
        body: ZCheckPrescription,
        response: { 200: z.object({ alerts: z.array(ZPrescriptionAlert) }), ...errorResponses },
      },
    },
    async (request) => ({ alerts: (await reader(deps, contextOf(request))(PRESCRIPTION_READS.check, request.body)).alerts }),
  );
  app.post(
    '/api/prescriptions',
    {
      config: { access: 'prescriptions.prepare', audit: { action: 'prescription.create', ...prescription } },
      schema: {
        description: 'A draft for a prescriber to sign (the writer, when she prescribes), with the checks as they stand.',
        body: ZCreatePrescription,
        response: { 201: ZPrescription, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createPrescription(deps, contextOf(request), request.body)),
  );
  app.put(
    '/api/prescriptions/:id',
    {
      config: { access: 'prescriptions.prepare', audit: { action: 'prescription.update', ...prescription } },
      schema: {
        description: 'A draft rewritten whole. A signed prescription is never edited: it is renewed or changed.',
        params: ZParams,
        body: ZUpdatePrescription,
        response: { 200: ZPrescription, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => updatePrescription(deps, contextOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/prescriptions/:id/sign',
    {
      config: { access: 'prescriptions.sign', audit: { action: 'prescription.sign', ...prescription } },
      schema: {
        description:
          'Signs a draft: the checks run again, each high alert needs an override reason; a controlled substance needs a DEA number and a fresh second factor (proof).',
        params: ZParams,
        body: ZSignPrescription,
        response: { 200: ZPrescription, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => signPrescription(deps, contextOf(request), request.params.id, request.body),
  );
  app.put(
    '/api/prescriptions/:id/status',
    {
      config: { access: 'prescriptions.prepare', audit: { action: 'prescription.update', ...prescription } },
      schema: {
        description: 'Completed, discontinued or entered-in-error (with the reason), or a draft discarded; the medication list follows.',
        params: ZParams,
        body: ZMovePrescription,
        response: { 200: ZPrescription, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => movePrescription(deps, contextOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/prescriptions/:id/print',
    {
      config: { access: 'prescriptions.manage', audit: { action: 'prescription.print', ...prescription } },
      schema: {
        description: 'The printable prescription (PDF). The first print of a signed prescription makes it active; a reprint is marked as a copy.',
        params: ZParams,
        response: { 200: z.any().describe('application/pdf'), ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      const printed = await printPrescription(deps, contextOf(request), request.params.id);
      return sendDownload(request, reply, { fileName: `${printed.rx.number}.pdf`, contentType: 'application/pdf', stream: PRINT_DRIVER.deliver(printed) });
    },
  );
  app.post(
    '/api/prescriptions/:id/replace',
    {
      config: { access: 'prescriptions.prepare', audit: { action: 'prescription.replace', ...prescription } },
      schema: {
        description: 'A new draft from a prescription in force: a renewal, or a change. Signing it ends the old one.',
        params: ZParams,
        body: ZReplacePrescription,
        response: { 201: ZPrescription, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await replacePrescription(deps, contextOf(request), request.params.id, request.body.kind)),
  );
  app.get(
    '/api/admin/prescribers',
    {
      config: { access: 'prescriptions.grant' },
      schema: {
        description: 'The users with prescribing rights, granted or revoked, by name, with their license, NPI and DEA number.',
        response: { 200: z.array(ZPrescriber), ...errorResponses },
      },
    },
    async () => prescribersFor(deps),
  );
  app.put(
    '/api/admin/prescribers/:userId',
    {
      config: { access: 'prescriptions.grant', audit: { action: 'prescriber.grant', ...user } },
      schema: {
        description: 'Grants an active admin or nurse prescribing rights, or changes their credentials.',
        params: ZUserParams,
        body: ZPrescriberRightsInput,
        response: { 200: ZPrescriber, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => grantRights(deps, contextOf(request), request.params.userId, request.body),
  );
  app.post(
    '/api/admin/prescribers/:userId/revoke',
    {
      config: { access: 'prescriptions.grant', audit: { action: 'prescriber.revoke', ...user } },
      schema: {
        description: 'Revokes her prescribing rights; what she signed stays signed.',
        params: ZUserParams,
        response: { 200: ZPrescriber, ...errorResponses },
      },
    },
    async (request) => revokeRights(deps, contextOf(request), request.params.userId),
  );
};
