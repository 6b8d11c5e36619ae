import { ERRORS, type TErrorCode, type TFieldError } from '#domain/errors';

export interface THttpErrorOptions {
  /** Replaces the table's default message (the contract's fixed texts are never replaced). */
  message?: string;
  headers?: Record<string, string>;
  /** More fields of the body, e.g. the matches of a duplicate warning. */
  extra?: Record<string, unknown>;
}

/**
 * A refusal the client can act on, named by its code in the one error table (domain/errors.ts),
 * which gives its status and default message. Services throw these; the error handler turns
 * them into the contract's JSON body. Anything else that escapes is a 500 with a generic text.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    readonly code: TErrorCode,
    options: THttpErrorOptions = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.statusCode = ERRORS[code].status;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export const unauthorized = () => new HttpError('auth.unauthenticated');
export const forbidden = () => new HttpError('auth.forbidden');
/** Also used for records outside the caller's scope, so ids cannot be probed. */
export const notFound = (message?: string) => new HttpError('record.notFound', message ? { message } : {});
/**
 * A key of the request as a refusal names it: one longer than any field name is cut, and
 * control characters and lone surrogates are shown as '?', so an answer never echoes a
 * 100,000-character key or bytes a client cannot print.
 */
export function shownKey(key: string): string {
  const printable = key.replace(/\p{Cc}|[\uD800-\uDFFF]/gu, '?');
  return printable.length > 64 ? `${printable.slice(0, 32)}…` : printable;
}

/** A 400 for a rule no schema could check, in the same shape as schema validation errors. */
export const invalid = (path: string, message: string) => invalidFields([{ path, message }]);
export const invalidFields = (errors: TFieldError[]) => new HttpError('request.validation', { extra: { errors } });
/** The record changed since the client read it. */
export const stale = (message?: string) => new HttpError('record.stale', message ? { message } : {});
