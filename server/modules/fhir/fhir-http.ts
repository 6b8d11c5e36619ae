import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Bundle, OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { ERRORS, type TErrorCode } from '#domain/errors';
import { FHIR_CONTENT_TYPE } from '#domain/fhir';
import { HttpError } from '../../http/errors.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { schemaFieldErrors } from '../../http/validation-errors.ts';
import { originOf } from '../../http/public-origin.ts';
import type { Deps } from '../../deps.ts';
import { CURSOR_PARAM } from './fhir-params.ts';

export const FHIR_BASE_PATH = '/fhir/R4';
export const fhirBase = (deps: Deps, request: FastifyRequest) => `${originOf(deps, request)}${FHIR_BASE_PATH}`;

/** Our error codes as FHIR's issue types, so a FHIR client can act on them. */
const ISSUE_TYPE: Partial<Record<number, OperationOutcomeIssue['code']>> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
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

/** Inside the FHIR plugin: every failure, the auth hook's included, leaves as an OperationOutcome. */
export function useOperationOutcomes(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
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

/** A path under the base that serves nothing: unknown types, operations, methods. */
export const notServed = (reply: FastifyReply, request: FastifyRequest) =>
  sendOutcome(reply, 'route.notFound', { message: `${request.method} ${request.url.split('?')[0]} is not served by this FHIR server (see metadata)` });

/**
 * A searchset Bundle: the page's resources and, when there is more, a `next` link carrying the
 * cursor of the page's last row (keyset paging: no duplicates, no gaps, whatever is written
 * meanwhile).
 */
export function searchBundle(base: string, request: FastifyRequest, type: string, resources: Resource[], nextCursor: string | null): Bundle {
  const url = new URL(request.url, 'http://x');
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
