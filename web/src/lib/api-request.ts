/**
 * The one way the web app talks to the API (spec section 7): cookies always sent, a JSON body
 * only when there is one, and every non-OK response turned into an error whose message is
 * `${status}: ${body text or status text}` (spec section 8), so callers and the logged-out
 * handling can all read it the same way.
 */

import { takeEarlyRead } from './early-reads.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An HTTP error from the API. `message` keeps the spec's exact `status: body` form. */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
}

/**
 * `signal` cancels the request on the wire (a search the user has typed past). A GET that the
 * page started early (lib/early-reads.ts) is answered by that request, which no signal cancels.
 */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<Response> {
  const hasBody = body !== undefined;
  const early = method === 'GET' && !hasBody ? takeEarlyRead(url) : undefined;
  const response = await (early ??
    fetch(url, {
      method,
      credentials: 'include',
      headers: hasBody ? { 'Content-Type': 'application/json' } : {},
      body: hasBody ? JSON.stringify(body) : undefined,
      signal: options.signal,
    }));
  await throwIfNotOk(response);
  return response;
}

/** A query key: URL segments, optionally ending with an object of search parameters. */
export type TQueryKey = readonly (string | number | Record<string, string | number | boolean | null | undefined>)[];

/**
 * Builds a read URL from a query key: segments joined with '/' (spec section 7); a trailing
 * object becomes the query string, so ['/api/appointments', { date }] reads
 * /api/appointments?date=...
 */
export function queryKeyToUrl(queryKey: TQueryKey): string {
  const segments: string[] = [];
  const params = new URLSearchParams();
  for (const part of queryKey) {
    if (typeof part === 'object' && part !== null) {
      for (const [name, value] of Object.entries(part)) {
        if (value !== undefined && value !== null) params.set(name, String(value));
      }
    } else {
      segments.push(String(part));
    }
  }
  const search = params.toString();
  return segments.join('/') + (search ? `?${search}` : '');
}

/** GETs the URL a query key names and returns its JSON. */
export async function fetchQueryKey<T>(queryKey: TQueryKey): Promise<T> {
  const response = await apiRequest('GET', queryKeyToUrl(queryKey));
  return (await response.json()) as T;
}
