import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FHIR_RESOURCES, FHIR_RESOURCE_TYPES, scopesAllow, type TFhirResourceType } from '#domain/fhir';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { capabilityStatement, smartConfiguration } from './capability-statement.ts';
import { everythingBundle } from './fhir-everything.ts';
import { fhirBase, FHIR_BASE_PATH, notServed, searchBundle, sendFhir, useOperationOutcomes } from './fhir-http.ts';
import { fhirSearchQuery } from './fhir-params.ts';
import { FHIR_TYPES } from './fhir-types.ts';
import { UUID_ID } from './fhir-search.ts';
import { FHIR_READS, PATIENT_EVERYTHING } from './fhir.service.ts';

/** `{id}` of a read: an id the type could not hold is a 404 without a query (FHIR's answer for an unknown id), so it parses to null. */
const idParams = (ids: RegExp) => z.object({ id: z.string().transform((id) => (ids.test(id) ? id : null)) });
/** $everything takes no parameters of its own: anything given is refused, not ignored. */
const ZNoQuery = z.object({}).strict();

/**
 * The FHIR R4 read API (issue 35; docs/decisions/fhir.md) at /fhir/R4: `metadata`, read and
 * search on each type of domain/fhir.ts, and Patient/{id}/$everything. Each type's routes
 * declare the capability of the app's screen for the same data, and read through the scoped
 * reader, so roles, record scope, restricted patients and the audit trail apply unchanged.
 */
export const fhirRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  useOperationOutcomes(app);
  const base = (request: FastifyRequest) => fhirBase(deps, request);

  const tokenEndpoint = (request: FastifyRequest) => `${originOf(deps, request)}/api/oauth/token`;
  app.get(`${FHIR_BASE_PATH}/metadata`, { config: { access: 'public' } }, async (request, reply) =>
    sendFhir(reply, capabilityStatement(base(request), tokenEndpoint(request), deps.settings.current().clinicName, deps.config.now())),
  );
  app.get(`${FHIR_BASE_PATH}/.well-known/smart-configuration`, { config: { access: 'public' } }, async (request) => smartConfiguration(tokenEndpoint(request)));

  for (const type of FHIR_RESOURCE_TYPES) {
    const reads = FHIR_READS[type];
    const access = FHIR_RESOURCES[type].capability;
    const audit = FHIR_TYPES[type].audit;
    app.get(
      `${FHIR_BASE_PATH}/${type}`,
      {
        config: { access, bearer: true, ...(audit ? { audit: { action: audit.search, entityType: audit.entityType } } : {}) },
        schema: { description: `Search ${type}: a searchset Bundle, paged by its next link.`, querystring: fhirSearchQuery(type) },
      },
      async (request, reply) => {
        requireScope(request, type);
        const found = await reader(deps, contextOf(request))(reads.search, request.query);
        return sendFhir(reply, searchBundle(base(request), request, type, found.resources, found.nextCursor));
      },
    );
    app.get(
      `${FHIR_BASE_PATH}/${type}/:id`,
      {
        config: { access, bearer: true, ...(audit ? { audit: { action: audit.read, entityType: audit.entityType } } : {}) },
        schema: { description: `Read one ${type}.`, params: idParams(FHIR_TYPES[type].ids ?? UUID_ID) },
      },
      async (request, reply) => {
        requireScope(request, type);
        if (request.params.id === null) throw notFound(`${type} not found`);
        const found = await reader(deps, contextOf(request))(reads.read, request.params.id);
        return sendFhir(reply, found.resource);
      },
    );
  }

  app.get(
    `${FHIR_BASE_PATH}/Patient/:id/$everything`,
    {
      config: { access: FHIR_RESOURCES.Patient.capability, bearer: true, audit: { action: 'patient.export', entityType: 'patient' } },
      schema: { description: 'The patient and everything about her the caller may read.', params: idParams(UUID_ID), querystring: ZNoQuery },
    },
    async (request, reply) => {
      requireScope(request, 'Patient');
      if (request.params.id === null) throw notFound('Patient not found');
      const args = { id: request.params.id, allows: (type: TFhirResourceType) => scopeAllows(request, type) };
      return sendFhir(reply, everythingBundle(base(request), await reader(deps, contextOf(request))(PATIENT_EVERYTHING, args)));
    },
  );

  // Anything else under the base (another type, an operation, a write) is not served.
  app.all(`${FHIR_BASE_PATH}/*`, { config: { access: 'public' } }, async (request, reply) => notServed(reply, request));
  app.all(FHIR_BASE_PATH, { config: { access: 'public' } }, async (request, reply) => notServed(reply, request));
};

/** An API client reads only the types its scopes name; a session, all its role reads. */
const scopeAllows = (request: FastifyRequest, type: TFhirResourceType) => !request.apiCaller || scopesAllow(request.apiCaller.client.scopes, type);
function requireScope(request: FastifyRequest, type: TFhirResourceType) {
  if (!scopeAllows(request, type)) throw new HttpError('oauth.insufficientScope');
}
