import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import {
  ZBreakGlassGrant,
  ZBreakGlassGrants,
  ZBreakGlassQueueQuery,
  ZBreakGlassRequest,
  ZBreakGlassReview,
  ZRestriction,
  ZSetRestriction,
} from '#domain/restricted-records';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { breakGlass, endBreakGlass, RESTRICTED_READS, reviewBreakGlass, setRestriction } from './restricted-records.service.ts';

const ZPatientParams = z.object({ id: z.uuid('Invalid patient id') });
const ZGrantParams = z.object({ id: z.uuid('Invalid id') });

/** Restricted records and break-glass (issue 33; docs/decisions/restricted-records.md). */
export const restrictedRecordsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/restriction',
    {
      config: { access: 'patients.restrict', audit: { action: 'patient.restriction_read', entityType: 'patient' } },
      schema: {
        description: "Whether the patient's record is restricted, and her care team (admins).",
        params: ZPatientParams,
        response: { 200: ZRestriction, ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(RESTRICTED_READS.restriction, request.params.id),
  );

  app.put(
    '/api/patients/:id/restriction',
    {
      config: { access: 'patients.restrict', audit: { action: 'patient.restrict', entityType: 'patient' } },
      schema: {
        description:
          "Restricts the record (or lifts it) and names its care team: everyone else sees 'Restricted patient' and nothing of her, everywhere, unless they break the glass.",
        params: ZPatientParams,
        body: ZSetRestriction,
        response: { 200: ZRestriction, ...errorResponses },
      },
    },
    async (request) => setRestriction(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/patients/:id/break-glass',
    {
      config: { access: 'patients.breakGlass', audit: { action: 'patient.break_glass', entityType: 'patient' } },
      schema: {
        description:
          'Emergency access to a restricted record: a fresh second factor, a reason and a justification (20 characters at least) give that one patient for the minutes asked (60 by default, 240 at most). Admins are told at once; the use waits for their review.',
        params: ZPatientParams,
        body: ZBreakGlassRequest,
        response: { 201: ZBreakGlassGrant, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await breakGlass(deps, contextOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/patients/:id/break-glass/end',
    {
      config: { access: 'patients.breakGlass', audit: { action: 'patient.break_glass_end', entityType: 'patient' } },
      schema: {
        description: 'Ends the caller’s running emergency access to this patient before its time: the record closes to her at once.',
        params: ZPatientParams,
        response: { 200: ZBreakGlassGrant, ...errorResponses },
      },
    },
    async (request) => endBreakGlass(deps, contextOf(request), request.params.id),
  );

  app.get(
    '/api/admin/break-glass',
    {
      config: { access: 'patients.restrict', audit: { action: 'patient.break_glass_queue', entityType: 'break_glass' } },
      schema: {
        description: 'The review queue of break-glass uses (open by default), newest first, with the accesses each recorded.',
        querystring: ZBreakGlassQueueQuery,
        response: { 200: ZBreakGlassGrants, ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(RESTRICTED_READS.queue, request.query.status),
  );

  app.put(
    '/api/admin/break-glass/:id',
    {
      config: { access: 'patients.restrict', audit: { action: 'patient.break_glass_review', entityType: 'break_glass' } },
      schema: {
        description: 'Closes a break-glass use with a disposition: appropriate, inappropriate or follow-up (once).',
        params: ZGrantParams,
        body: ZBreakGlassReview,
        response: { 200: ZBreakGlassGrant, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => reviewBreakGlass(deps, contextOf(request), request.params.id, request.body),
  );
};
