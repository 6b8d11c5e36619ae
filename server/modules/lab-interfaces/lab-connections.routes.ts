import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { LAB_SEND_STATUSES, ZLabConnection, ZLabConnectionTest, ZLabSend, ZSaveLabConnection } from '#domain/lab-interfaces';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { runPeriodically } from '../../jobs/periodic.ts';
import { listLabConnections, listLabSends } from './lab-sends.queries.ts';
import { LAB_SENDS_EVERY_MS, LAB_SENDS_JOB, retryLabSend, runLabSends, saveLabConnection, testLabConnection } from './lab-sends.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid id') });
const access = 'labs.interface';
const connection = { entityType: 'lab_connection' } as const;

/**
 * Orders out (issue 54; docs/decisions/lab-interfaces.md): the labs the clinic sends orders to
 * (an admin's), a test message to one, the sends in each state and sending a failed one again;
 * and the sender itself, every few seconds. None of it names a patient.
 */
export const labConnectionRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/lab-connections',
    {
      config: { access },
      schema: {
        description: 'The labs orders are sent to, with their codes for the catalogue’s tests.',
        response: { 200: z.array(ZLabConnection), ...errorResponses },
      },
    },
    async () => listLabConnections(deps.db),
  );
  app.post(
    '/api/admin/lab-connections',
    {
      config: { access, audit: { action: 'lab.connection.create', ...connection } },
      schema: { body: ZSaveLabConnection, response: { 201: ZLabConnection, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await saveLabConnection(deps, contextOf(request), null, request.body)),
  );
  app.put(
    '/api/admin/lab-connections/:id',
    {
      config: { access, audit: { action: 'lab.connection.update', ...connection } },
      schema: { params: ZParams, body: ZSaveLabConnection, response: { 200: ZLabConnection, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => saveLabConnection(deps, contextOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/admin/lab-connections/:id/test',
    {
      config: { access },
      schema: {
        description: 'Sends a test order (processing id T, a test patient) and says what the lab answered.',
        params: ZParams,
        response: { 200: ZLabConnectionTest, ...errorResponses },
      },
    },
    async (request) => testLabConnection(deps, request.params.id),
  );
  app.get(
    '/api/admin/lab-sends',
    {
      config: { access },
      schema: {
        description: 'Sends of orders to labs in one state (failed by default), the latest first.',
        querystring: z.object({ status: z.enum(LAB_SEND_STATUSES).default('failed') }).strict(),
        response: { 200: z.array(ZLabSend), ...errorResponses },
      },
    },
    async (request) => listLabSends(deps.db, request.query.status),
  );
  app.post(
    '/api/admin/lab-sends/:id/retry',
    {
      config: { access, audit: { action: 'lab.send.retry', entityType: 'lab_order' } },
      schema: { description: 'Queues a failed send again, now.', params: ZParams, response: { 204: z.null(), ...errorResponses, 409: ZErrorBody } },
    },
    async (request, reply) => {
      await retryLabSend(deps, contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  runPeriodically(app, LAB_SENDS_JOB, LAB_SENDS_EVERY_MS, () => runLabSends(deps));
};
