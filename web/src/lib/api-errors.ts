import { errorCodeOf, type TErrorCode, type TFieldError } from '#domain/errors';
import { ApiError } from './api-request.ts';

/** What a screen needs to show about a failed call. */
export interface TDisplayError {
  /** HTTP status, or null when the server was never reached. For display only: branch on `code`. */
  status: number | null;
  /** The server's stable error code (domain/errors.ts), or null when the body carried none. */
  code: TErrorCode | null;
  message: string;
  fieldErrors: TFieldError[];
}

const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

interface TRawApiError {
  status: number;
  bodyText: string;
}

/**
 * The status and body text of an error thrown by apiRequest. Works from the `status: body`
 * message too, so errors that were re-thrown or serialised still read well.
 */
function rawApiError(error: unknown): TRawApiError | null {
  if (error instanceof ApiError) {
    return { status: error.status, bodyText: error.bodyText || error.message.replace(/^\d{3}: /, '') };
  }
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  return match ? { status: Number(match[1]), bodyText: match[2] ?? '' } : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, plain text).
    return null;
  }
}

/** The parsed JSON body of a failed API call, or null (no response, or a body that is not JSON). */
export function errorBodyOf(error: unknown): unknown {
  const raw = rawApiError(error);
  return raw ? parseJson(raw.bodyText) : null;
}

/** The server's error code of a failed API call, or null. The web branches on this, never on statuses. */
export function apiErrorCode(error: unknown): TErrorCode | null {
  return errorCodeOf(errorBodyOf(error));
}

function hasMessage(body: unknown): body is { message: string; errors?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}

function fieldErrorsOf(body: { errors?: unknown }): TFieldError[] {
  if (!Array.isArray(body.errors)) return [];
  return body.errors.filter(
    (entry): entry is TFieldError => typeof entry === 'object' && entry !== null && typeof entry.path === 'string' && typeof entry.message === 'string',
  );
}

/** Reads the server's JSON error body `{message, code, errors?}` out of an error thrown by apiRequest. */
export function describeApiError(error: unknown): TDisplayError {
  const raw = rawApiError(error);
  if (!raw) {
    // fetch rejects with a TypeError when the network or server is down.
    const message = error instanceof TypeError ? NETWORK_MESSAGE : FALLBACK_MESSAGE;
    return { status: null, code: null, message, fieldErrors: [] };
  }

  const body = parseJson(raw.bodyText);
  const code = errorCodeOf(body);
  if (hasMessage(body)) return { status: raw.status, code, message: body.message, fieldErrors: fieldErrorsOf(body) };
  // Never show a whole HTML error page; a short plain-text body is fine.
  const plain = raw.bodyText.trim();
  const readable = plain && plain.length <= 200 && !plain.startsWith('<') ? plain : FALLBACK_MESSAGE;
  return { status: raw.status, code, message: readable, fieldErrors: [] };
}

/** Spec section 8: a message starting with '401:' and containing 'Unauthorized' means logged out. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/s.test(error.message);
}
