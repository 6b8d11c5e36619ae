import type { TErrorBody } from '#domain/errors';
import { ApiError } from './api-request.ts';

/** What a screen needs to show about a failed call. */
export interface TDisplayError {
  /** HTTP status, or null when the server was never reached. */
  status: number | null;
  message: string;
  fieldErrors: { path: string; message: string }[];
}

const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

function parseErrorBody(text: string): TErrorBody | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as TErrorBody).message === 'string') {
      return parsed as TErrorBody;
    }
  } catch {
    // Not JSON (a proxy's HTML page, plain text): the raw text is shown instead.
  }
  return null;
}

/**
 * Reads the server's JSON error body `{message, errors?}` out of an error thrown by
 * apiRequest. Works from the `status: body` message too, so errors that were re-thrown or
 * serialised still display well.
 */
export function describeApiError(error: unknown): TDisplayError {
  if (!(error instanceof Error)) return { status: null, message: FALLBACK_MESSAGE, fieldErrors: [] };

  let status: number | null = null;
  let bodyText = '';
  if (error instanceof ApiError) {
    status = error.status;
    bodyText = error.bodyText || error.message.replace(/^\d{3}: /, '');
  } else {
    const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
    if (!match) {
      // fetch rejects with a TypeError when the network or server is down.
      return { status: null, message: error instanceof TypeError ? NETWORK_MESSAGE : FALLBACK_MESSAGE, fieldErrors: [] };
    }
    status = Number(match[1]);
    bodyText = match[2] ?? '';
  }

  const body = parseErrorBody(bodyText);
  if (body) return { status, message: body.message, fieldErrors: body.errors ?? [] };
  // Never show a whole HTML error page; a short plain-text body is fine.
  const plain = bodyText.trim();
  const readable = plain && plain.length <= 200 && !plain.startsWith('<') ? plain : FALLBACK_MESSAGE;
  return { status, message: readable, fieldErrors: [] };
}

/** Spec section 8: a message starting with '401:' and containing 'Unauthorized' means logged out. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/s.test(error.message);
}
