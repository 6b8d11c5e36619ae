import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type TErrorBody, type TErrorCode, type TFieldError } from '#domain/errors';
import { HttpError } from '../http/errors.ts';
import { schemaFieldErrors } from '../http/validation-errors.ts';
import { loggableError } from '../http/loggable-error.ts';
import { isDatabaseAway, isStorageFull, isTransientConflict } from '../db/sql-state.ts';

/** How long a client waits before asking again while the database is away (a restart takes seconds). */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Every failure leaves as the contract's JSON: `{message, code}`, plus `errors` with one entry
 * per field on a 400. Client mistakes keep a 4xx status; anything unexpected is logged (without
 * the values of a failed query) and answered with a generic 500 text, so internals never reach
 * the browser.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) return send(reply, 'request.validation', { errors: schemaFieldErrors(error) });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, clientErrorCode(error));
    // A disk full or read-only: nothing was saved, and the operator must act (issue 48).
    if (isStorageFull(error)) {
      request.log.error({ err: loggableError(error) }, 'storage full or read-only');
      reply.header('retry-after', '30');
      return send(reply, 'server.storage');
    }
    // The database restarting or out of reach: a moment's wait, not a fault of the request (issue 48).
    if (isDatabaseAway(error)) {
      request.log.warn({ err: loggableError(error) }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(reply, 'server.unavailable');
    }
    // Aborted for a transaction running beside it, even after inTransaction's retries: nothing
    // was kept, and the same request a moment later succeeds.
    if (isTransientConflict(error)) {
      request.log.warn({ err: loggableError(error) }, 'transaction aborted by a concurrent one');
      reply.header('retry-after', '1');
      return send(reply, 'server.busy');
    }
    request.log.error({ err: loggableError(error) }, 'request failed');
    return send(reply, 'server.internal');
  });
});

/** The answer to a path no route serves (set by the rate-limit plugin, which counts such requests too). */
export const replyNotFound = (request: FastifyRequest, reply: FastifyReply) =>
  send(reply, 'route.notFound', { message: `Route ${request.method} ${request.url.split('?')[0]} not found` });

/**
 * Fastify's `frameworkErrors`: what it refuses before routing (a malformed URL such as `/x%`, a
 * parameter over the length limit) leaves as the same body as every other 400, never echoing
 * the URL. No hook runs for these, so the security headers are set here.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(headers);
    if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 'request.invalid');
    request.log.error({ err: loggableError(error) }, 'request failed');
    return send(reply, 'server.internal');
  };
}

function send(reply: FastifyReply, code: TErrorCode, fields: { message?: string; errors?: TFieldError[] } = {}) {
  const body: TErrorBody = { message: fields.message ?? ERRORS[code].message, code, ...(fields.errors ? { errors: fields.errors } : {}) };
  return reply.code(ERRORS[code].status).send(body);
}

/** Fastify's own 4xx refusals, by their codes; their messages can echo input, so the table's text is sent. */
function clientErrorCode(error: FastifyError): TErrorCode {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'request.malformedJson';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request.emptyJson';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'request.unsupportedMediaType';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request.tooLarge';
    default:
      // JSON.parse errors arrive as SyntaxError with status 400.
      return error instanceof SyntaxError ? 'request.malformedJson' : 'request.invalid';
  }
}
