import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Bundle, OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { ERRORS, type TErrorCode } from '#domain/errors';
import { FHIR_CONTENT_TYPE, scopesAllow, type TFhirResourceType } from '#domain/fhir';
import { HttpError } from '../../http/errors.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { schemaFieldErrors } from '../../http/validation-errors.ts';
import { originOf } from '../../http/public-origin.ts';
import type { Deps } from '../../deps.ts';
import { asksForJson, CURSOR_PARAM, JSON_FORMATS } from './fhir-params.ts';

export const FHIR_BASE_PATH = '/fhir/R4';
export const fhirBase = (deps: Deps, request: FastifyRequest) => `${originOf(deps, request)}${FHIR_BASE_PATH}`;

/** Our error codes as FHIR's issue types, so a FHIR client can act on them. */
const ISSUE_TYPE: Partial<Record<number, OperationOutcomeIssue['code']>> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  409: 'conflict',
  413: 'too-costly',
  429: 'throttled',
  503: 'transient',
};

/**
 * An error as FHIR has it: an OperationOutcome with the same status as the rest of the API, its
 * text as `diagnostics`, and our code (domain/errors.ts) as the issue's coding, so the one error
 * table still names every refusal.
 */
export function operationOutcome(status: number, code: TErrorCode, message: string, fields: { path: string; message: string }[] = []): OperationOutcome {
  const issue = (diagnostics: string, expression?: string): OperationOutcomeIssue => ({
    severity: status >= 500 ? 'fatal' : 'error',
    code: ISSUE_TYPE[status] ?? 'processing',
    details: { coding: [{ system: 'urn:clinic-ehr:error', code }], text: message },
    diagnostics,
    ...(expression ? { expression: [expression] } : {}),
  });
  return { resourceType: 'OperationOutcome', issue: fields.length ? fields.map((f) => issue(f.message, f.path)) : [issue(message)] };
}

export const sendFhir = (reply: FastifyReply, body: Resource, status = 200) => reply.code(status).type(FHIR_CONTENT_TYPE).send(body);

function sendOutcome(reply: FastifyReply, code: TErrorCode, options: { message?: string; fields?: { path: string; message: string }[]; status?: number } = {}) {
  const status = options.status ?? ERRORS[code].status;
  return sendFhir(reply, operationOutcome(status, code, options.message ?? ERRORS[code].message, options.fields), status);
}

/**
 * RFC 6750 3: a 401 names the scheme that would do, and says `invalid_token` when a bearer
 * token was sent and signed no one in (unknown, malformed, expired or revoked alike).
 */
const bearerChallenge = (request: FastifyRequest) =>
  /^Bearer(\s|$)/i.test(request.headers.authorization ?? '') ? 'Bearer realm="fhir", error="invalid_token"' : 'Bearer realm="fhir"';

/** Inside the FHIR plugin: every failure, the auth hook's included, leaves as an OperationOutcome. */
export function useOperationOutcomes(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      if (error.statusCode === 401) reply.header('www-authenticate', bearerChallenge(request));
      const fields = (error.extra as { errors?: { path: string; message: string }[] }).errors;
      return sendOutcome(reply, error.code, { message: error.message, ...(fields ? { fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) return sendOutcome(reply, 'request.validation', { fields: schemaFieldErrors(error) });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendOutcome(reply, 'request.invalid', { status });
    request.log.error({ err: loggableError(error) }, 'request failed');
    return sendOutcome(reply, 'server.internal');
  });
}

/** An API client reads only the types its scopes name; a session, all its role reads. */
export const scopeAllows = (request: FastifyRequest, type: TFhirResourceType) => !request.apiCaller || scopesAllow(request.apiCaller.client.scopes, type);

/** A type the token's scopes do not open: 403 with the challenge that says why and which scope would do (RFC 6750 3.1). */
export const insufficientScope = (type: TFhirResourceType, access: 'read' | 'c' = 'read') =>
  new HttpError('oauth.insufficientScope', {
    headers: { 'www-authenticate': `Bearer realm="fhir", error="insufficient_scope", scope="system/${type}.${access}"` },
  });

/** A path under the base that serves nothing: unknown types, operations, methods. */
export const notServed = (reply: FastifyReply, request: FastifyRequest) =>
  sendOutcome(reply, 'route.notFound', { message: `${request.method} ${request.url.split('?')[0]} is not served by this FHIR server (see metadata)` });

/** What a type's path and a resource's path serve: reads (HEAD is Fastify's, from each GET). */
const READ_METHODS = ['GET', 'HEAD'];
/** FHIR's create, update, patch and delete (and their conditional forms): none is served. */
export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A write on a path that is read: 405 with what it serves (RFC 9110 15.5.6), never a 404 or a body refused unread. */
export const notAllowed = (reply: FastifyReply, request: FastifyRequest) =>
  sendOutcome(reply.header('allow', READ_METHODS.join(', ')), 'route.methodNotAllowed', {
    message: `${request.method} ${request.url.split('?')[0]} is not supported: this FHIR server is read-only (see metadata)`,
  });

/** Media types a JSON answer satisfies: R4's, plain JSON, and DSTU2's name still sent by older clients. */
const JSON_TYPES = ['application/fhir+json', 'application/json', 'application/json+fhir'];
const mediaType = (value: string) => value.split(';')[0]!.trim().toLowerCase().replace(/ /g, '+');

/**
 * Whether an Accept header takes JSON (RFC 9110 12.5.1): for each type answered, the most
 * specific range matching it gives its weight, and some type must weigh more than 0. No header
 * takes anything.
 */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  const ranges = accept.split(',').map((part) => {
    const q = /;\s*q\s*=\s*([0-9.]+)/i.exec(part)?.[1];
    return { range: mediaType(part), q: q === undefined ? 1 : Number(q) };
  });
  const weight = (type: string) => {
    const [major] = type.split('/');
    const match = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`) ?? ranges.find((r) => r.range === '*/*');
    return match?.q ?? 0;
  };
  return JSON_TYPES.some((type) => weight(type) > 0);
}

/**
 * Inside the FHIR plugin, before the handler: XML (or anything but JSON) asked by `_format`,
 * which FHIR puts above Accept, or else by Accept, is a 406 OperationOutcome, never JSON
 * under a 200 the client would take for what it asked.
 */
export function refuseOtherFormats(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const format = (request.query as Record<string, string | string[] | undefined>)._format;
    const acceptable = format === undefined ? acceptsJson(request.headers.accept) : [format].flat().every(asksForJson);
    if (acceptable) return;
    // What was asked is not echoed: the reason names the parameter to change.
    const reason = format === undefined ? 'Accept names no JSON type' : `_format must be one of ${JSON_FORMATS.join(', ')}`;
    return sendOutcome(reply, 'request.notAcceptable', { message: `This FHIR server answers in JSON only (application/fhir+json): ${reason}` });
  });
}

/**
 * A read with its validators: a weak ETag that is a hash of the resource as served (it changes
 * with anything in it, what meta.lastUpdated does not follow included) and meta.lastUpdated as
 * Last-Modified; 304 with no body when the client's copy is current (RFC 9110 13.1.2, 13.1.3).
 * The read has been made (and audited) by then: a 304 tells the client the record as it has it.
 */
export function sendRead(request: FastifyRequest, reply: FastifyReply, resource: Resource) {
  const body = JSON.stringify(resource);
  const etag = `W/"${createHash('sha256').update(body).digest('base64url')}"`;
  const lastUpdated = resource.meta?.lastUpdated ? Date.parse(resource.meta.lastUpdated) : Number.NaN;
  reply.header('etag', etag);
  if (!Number.isNaN(lastUpdated)) reply.header('last-modified', new Date(lastUpdated).toUTCString());
  if (notModified(request, etag, lastUpdated)) return reply.code(304).send();
  return reply.code(200).type(FHIR_CONTENT_TYPE).send(body);
}

const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, '');
function notModified(request: FastifyRequest, etag: string, lastUpdated: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  // When present it decides alone (13.2.2), by weak comparison, `*` matching any current version.
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaqueTag(tag) === opaqueTag(etag));
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  // An HTTP date has whole seconds: the record was modified at the second it was.
  return !Number.isNaN(since) && !Number.isNaN(lastUpdated) && Math.floor(lastUpdated / 1000) * 1000 <= since;
}

/**
 * A searchset Bundle: the page's resources and, when there is more, a `next` link carrying the
 * cursor of the page's last row (keyset paging: no duplicates, no gaps, whatever is written
 * meanwhile).
 */
export function searchBundle(base: string, requestUrl: string, type: string, resources: Resource[], nextCursor: string | null): Bundle {
  const url = new URL(requestUrl, 'http://x');
  const self = `${base}/${type}${url.search}`;
  const next = new URLSearchParams(url.search);
  next.delete(CURSOR_PARAM);
  if (nextCursor) next.set(CURSOR_PARAM, nextCursor);
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    link: [{ relation: 'self', url: self }, ...(nextCursor ? [{ relation: 'next', url: `${base}/${type}?${next.toString()}` }] : [])],
    entry: resources.map((resource) => ({ fullUrl: `${base}/${resource.resourceType}/${resource.id}`, resource, search: { mode: 'match' as const } })),
  };
}
