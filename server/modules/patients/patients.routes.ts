import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZCreatePatient, ZDuplicatePatients, ZPatient, ZPatientListItem, ZPatientListQuery, ZUpdatePatient } from '#domain/patients';
import type { Deps } from '../../deps.ts';
import { clientGoneSignal } from '../../http/client-gone.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { createPatient, PATIENT_READS, updatePatient } from './patients.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid patient id') });

export const patientRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/patients',
    {
      config: { access: 'patients.read', audit: PATIENT_READS.list },
      schema: { querystring: ZPatientListQuery, response: { 200: z.array(ZPatientListItem), ...errorResponses } },
    },
    async (request, reply) =>
      sendPage(reply, await reader(deps, contextOf(request))(PATIENT_READS.list, { query: request.query, signal: clientGoneSignal(reply) })),
  );

  app.get(
    '/api/patients/:id',
    { config: { access: 'patients.read', audit: PATIENT_READS.get }, schema: { params: ZParams, response: { 200: ZPatient, ...errorResponses } } },
    async (request) => reader(deps, contextOf(request))(PATIENT_READS.get, request.params.id),
  );

  app.post(
    '/api/patients',
    {
      config: { access: 'patients.write', audit: { action: 'patient.create', entityType: 'patient' } },
      schema: { body: ZCreatePatient, response: { 201: ZPatient, ...errorResponses, 409: ZDuplicatePatients } },
    },
    async (request, reply) => reply.code(201).send(await createPatient(deps, contextOf(request), request.body)),
  );

  app.put(
    '/api/patients/:id',
    {
      config: { access: 'patients.write', audit: { action: 'patient.update', entityType: 'patient' } },
      schema: { params: ZParams, body: ZUpdatePatient, response: { 200: ZPatient, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => updatePatient(deps, contextOf(request), request.params.id, request.body),
  );
};
