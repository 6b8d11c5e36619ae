import { ERROR_MESSAGES } from '#domain/errors';

/**
 * A refusal the client can act on. Services throw these; the error handler turns them into
 * the contract's JSON body. Anything else that escapes is a 500 with a generic message.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, ERROR_MESSAGES.unauthorized);
export const forbidden = () => new HttpError(403, ERROR_MESSAGES.forbidden);
/** Also used for records outside the caller's scope, so ids cannot be probed. */
export const notFound = (what: string = ERROR_MESSAGES.notFound) => new HttpError(404, what);
/** A 400 for a rule no schema could check, in the same shape as schema validation errors. */
export const invalid = (path: string, message: string) =>
  new HttpError(400, ERROR_MESSAGES.validation, {}, { errors: [{ path, message }] });
export const conflict = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(409, message, {}, extra);
