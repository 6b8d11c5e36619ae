import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OAUTH_TOKEN_PATH } from '#domain/api-clients';
import { FHIR_CREATABLE, FHIR_RESOURCES, FHIR_RESOURCE_TYPES, type TFhirResourceType } from '#domain/fhir';
import type { Deps } from '../../deps.ts';
import { HttpError, invalidFields, notFound } from '../../http/errors.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { capabilityStatement, smartConfiguration } from './capability-statement.ts';
import { everythingBundle, parseEverythingQuery } from './fhir-everything.ts';
import {
  fhirBase,
  FHIR_BASE_PATH,
  insufficientScope,
  notAllowed,
  notServed,
  refuseOtherFormats,
  scopeAllows,
  searchBundle,
  sendFhir,
  sendRead,
  useOperationOutcomes,
  WRITE_METHODS,
} from './fhir-http.ts';
import { fhirSearchQuery } from './fhir-params.ts';
import { withIncluded } from './fhir-provenance.ts';
import { FHIR_TYPES } from './fhir-types.ts';
import { UUID_ID } from './fhir-search.ts';
import { FHIR_READS, PATIENT_EVERYTHING } from './fhir.service.ts';
import { fhirResultRoutes } from './lab-results.routes.ts';

/** `{id}` of a read: an id the type could not hold is a 404 without a query (FHIR's answer for an unknown id), so it parses to null. */
const idParams = (ids: RegExp) => z.object({ id: z.string().transform((id) => (ids.test(id) ? id : null)) });
/**
 * What a read takes: `_format` (JSON only, fhir-http.ts) and `_pretty` (a layout hint, no
 * effect). `_summary` and `_elements` would return part of the resource: not served, so refused
 * as on searches, never a whole resource that looks like the part asked for.
 */
const ZReadQuery = z.object({ _format: z.string().optional(), _pretty: z.string().optional() }).strict();

/** A query or form of strings, a parameter given once or repeated. */
const ZRawParams = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
/** $everything's own parameters (fhir-everything.ts); anything else is refused, not ignored. */
const ZEverythingQuery = ZRawParams.transform((query, ctx) => {
  try {
    return parseEverythingQuery(query);
  } catch (error) {
    if (!(error instanceof HttpError) || error.code !== 'request.validation') throw error;
    for (const field of (error.extra as { errors: { path: string; message: string }[] }).errors) {
      ctx.addIssue({ code: 'custom', path: [field.path], message: field.message });
    }
    return z.NEVER;
  }
});

/** Parameters back to a query string, repeated ones repeated. */
const queryString = (params: Record<string, string | string[] | undefined>) =>
  new URLSearchParams(Object.entries(params).flatMap(([key, value]) => [value ?? []].flat().map((v) => [key, v] as [string, string]))).toString();

/** A form body's parameters, repeated ones as lists (a POSTed search). */
function formParams(body: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = params[key];
    params[key] = seen === undefined ? value : [seen].flat().concat(value);
  }
  return params;
}

/**
 * The FHIR R4 read API (issue 35; docs/decisions/fhir.md) at /fhir/R4: `metadata`, read and
 * search on each type of domain/fhir.ts, and Patient/{id}/$everything. Each type's routes
 * declare the capability of the app's screen for the same data, and read through the scoped
 * reader, so roles, record scope, restricted patients and the audit trail apply unchanged.
 */
export const fhirRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  useOperationOutcomes(app);
  refuseOtherFormats(app);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) =>
    done(null, formParams(body as string)),
  );
  const base = (request: FastifyRequest) => fhirBase(deps, request);

  const tokenEndpoint = (request: FastifyRequest) => `${originOf(deps, request)}${OAUTH_TOKEN_PATH}`;
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
        schema: { description: `Search ${type}: a searchset Bundle, paged by its next link.`, querystring: fhirSearchQuery(type, FHIR_TYPES[type].ids) },
      },
      async (request, reply) => {
        requireScope(request, type);
        const found = await reader(deps, contextOf(request))(reads.search, request.query);
        return sendFhir(reply, withIncluded(searchBundle(base(request), request.url, type, found.resources, found.nextCursor), base(request), found.included));
      },
    );
    // R4 3.1.0.1.1: a search may be POSTed to [type]/_search with its parameters as a form
    // (and in the query); answered as the GET, whose links it gives.
    app.post(
      `${FHIR_BASE_PATH}/${type}/_search`,
      {
        config: { access, bearer: true, ...(audit ? { audit: { action: audit.search, entityType: audit.entityType } } : {}) },
        schema: { description: `Search ${type} with a form body: as GET ${type}.`, querystring: ZRawParams, body: ZRawParams.optional() },
      },
      async (request, reply) => {
        requireScope(request, type);
        const params = { ...request.query, ...request.body };
        const parsed = fhirSearchQuery(type, FHIR_TYPES[type].ids).safeParse(params);
        if (!parsed.success) throw invalidFields(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
        const found = await reader(deps, contextOf(request))(reads.search, parsed.data);
        const url = `${FHIR_BASE_PATH}/${type}?${queryString(params)}`;
        return sendFhir(reply, withIncluded(searchBundle(base(request), url, type, found.resources, found.nextCursor), base(request), found.included));
      },
    );
    app.get(
      `${FHIR_BASE_PATH}/${type}/:id`,
      {
        config: { access, bearer: true, ...(audit ? { audit: { action: audit.read, entityType: audit.entityType } } : {}) },
        schema: { description: `Read one ${type}.`, params: idParams(FHIR_TYPES[type].ids ?? UUID_ID), querystring: ZReadQuery },
      },
      async (request, reply) => {
        requireScope(request, type);
        if (request.params.id === null) throw notFound(`${type} not found`);
        const found = await reader(deps, contextOf(request))(reads.read, request.params.id);
        return sendRead(request, reply, found.resource);
      },
    );
    // A write is answered before its body is read (a FHIR body is no unknown media type to refuse);
    // a lab's results are the one create served (issue 54, fhirResultRoutes).
    const creatable = (FHIR_CREATABLE as readonly string[]).includes(type);
    app.route({
      method: creatable ? WRITE_METHODS.filter((m) => m !== 'POST') : WRITE_METHODS,
      url: `${FHIR_BASE_PATH}/${type}`,
      config: { access: 'public' },
      onRequest: refuseWrite,
      handler: refuseWrite,
    });
    app.route({ method: WRITE_METHODS, url: `${FHIR_BASE_PATH}/${type}/:id`, config: { access: 'public' }, onRequest: refuseWrite, handler: refuseWrite });
  }

  app.get(
    `${FHIR_BASE_PATH}/Patient/:id/$everything`,
    {
      config: { access: FHIR_RESOURCES.Patient.capability, bearer: true, audit: { action: 'patient.export', entityType: 'patient' } },
      schema: {
        description: 'The patient and everything about her the caller may read; _type, _since, start, end and _count (paged by next).',
        params: idParams(UUID_ID),
        querystring: ZEverythingQuery,
      },
    },
    async (request, reply) => {
      requireScope(request, 'Patient');
      if (request.params.id === null) throw notFound('Patient not found');
      const query = request.query;
      const args = { id: request.params.id, allows: (type: TFhirResourceType) => scopeAllows(request, type), query };
      const everything = await reader(deps, contextOf(request))(PATIENT_EVERYTHING, args);
      const page = { url: new URL(request.url, 'http://x'), count: query.count, offset: query.offset };
      return sendFhir(reply, everythingBundle(base(request), everything, page));
    },
  );

  // Anything else under the base (another type, an operation) is not served, whatever its body.
  const refuseUnserved = async (request: FastifyRequest, reply: FastifyReply) => notServed(reply, request);
  app.all(`${FHIR_BASE_PATH}/*`, { config: { access: 'public' }, onRequest: refuseUnserved }, refuseUnserved);
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: FHIR_BASE_PATH,
    config: { access: 'public' },
    onRequest: refuseUnserved,
    handler: refuseUnserved,
  });
  fhirResultRoutes(app, deps, FHIR_BASE_PATH);
};

const refuseWrite = async (request: FastifyRequest, reply: FastifyReply) => notAllowed(reply, request);

function requireScope(request: FastifyRequest, type: TFhirResourceType) {
  if (!scopeAllows(request, type)) throw insufficientScope(type);
}
