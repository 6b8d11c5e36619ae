import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PATIENT_LIST_HEADERS, ZCreatePatient, ZDuplicatePatients, ZPatient, ZPatientListQuery, ZUpdatePatient,
} from '#domain/patients';
import type { Deps } from '../../deps.ts';
import { ZErrorBody, errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { createPatient, getPatientFor, listPatientsFor, updatePatient } from './patients.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid patient id') });

export const patientRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/patients', {
    config: { access: 'patients.read' },
    schema: { querystring: ZPatientListQuery, response: { 200: z.array(ZPatient), ...errorResponses } },
  }, async (request, reply) => {
    const page = await listPatientsFor(deps, contextOf(request), request.query);
    if (page.total !== null) reply.header(PATIENT_LIST_HEADERS.total, String(page.total));
    if (page.nextCursor) reply.header(PATIENT_LIST_HEADERS.nextCursor, page.nextCursor);
    return page.patients;
  });

  app.get('/api/patients/:id', {
    config: { access: 'patients.read' },
    schema: { params: ZParams, response: { 200: ZPatient, ...errorResponses } },
  }, async (request) => getPatientFor(deps, contextOf(request), request.params.id));

  app.post('/api/patients', {
    config: { access: 'patients.write' },
    schema: { body: ZCreatePatient, response: { 201: ZPatient, ...errorResponses, 409: ZDuplicatePatients } },
  }, async (request, reply) => reply.code(201).send(await createPatient(deps, contextOf(request), request.body)));

  app.put('/api/patients/:id', {
    config: { access: 'patients.write' },
    schema: { params: ZParams, body: ZUpdatePatient, response: { 200: ZPatient, ...errorResponses, 409: ZErrorBody } },
  }, async (request) => updatePatient(deps, contextOf(request), request.params.id, request.body));
};
