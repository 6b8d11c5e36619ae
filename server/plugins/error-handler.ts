import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type TErrorBody } from '#domain/errors';
import { HttpError } from '../http/errors.ts';

/**
 * Every failure leaves as the contract's JSON: `{message}`, plus `errors` with one entry per
 * field on a 400. Client mistakes keep their 4xx status; anything unexpected is logged and
 * answered with a generic 500 text, so internals never reach the browser.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as { validationContext?: string }).validationContext ?? 'body';
      const errors = error.validation.flatMap((v) => {
        const at = v.instancePath.slice(1).replaceAll('/', '.');
        const prefix = at ? `${at}.` : '';
        // An unknown field is named itself, so the caller sees which one to drop.
        const unknownKeys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys ?? [] : [];
        if (unknownKeys.length > 0) return unknownKeys.map((k) => ({ path: prefix + k, message: 'Unknown field' }));
        return [{ path: at || context, message: v.message ?? 'Invalid value' }];
      });
      return reply.code(400).send({ message: ERROR_MESSAGES.validation, errors } satisfies TErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: clientErrorMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: ERROR_MESSAGES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
});

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Request body is not valid JSON';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty but declared as JSON';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type; send JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    default:
      // JSON.parse errors arrive as SyntaxError with status 400.
      return error instanceof SyntaxError ? 'Request body is not valid JSON' : error.message;
  }
}
