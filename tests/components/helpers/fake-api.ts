import { vi } from 'vitest';

/** One request the page made: what the server would have seen. */
export interface TRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
}

export interface TReply {
  status: number;
  json?: unknown;
}

/** `'METHOD /path'` (the path without its query) to the reply; a path may end in `*` for any rest. */
export type TRoutes = Record<string, (request: TRequest) => TReply | Promise<TReply>>;

/**
 * The network boundary, faked: `fetch` answers from `routes` (404 for anything else) and keeps
 * every request, so a test asserts what was sent, or that nothing was. Nothing else is mocked.
 */
export function fakeApi(routes: TRoutes) {
  const requests: TRequest[] = [];
  const route = (method: string, path: string) =>
    routes[`${method} ${path}`] ?? Object.entries(routes).find(([key]) => key.endsWith('*') && `${method} ${path}`.startsWith(key.slice(0, -1)))?.[1];

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://clinic.test');
    const method = init.method ?? 'GET';
    const request: TRequest = { method, path: url.pathname, search: url.searchParams, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    requests.push(request);
    const handler = route(method, url.pathname);
    const reply = handler ? await handler(request) : { status: 404, json: { message: 'Not found', code: 'record.notFound' } };
    return new Response(reply.json === undefined ? null : JSON.stringify(reply.json), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });

  return {
    requests,
    /** What was sent to change something (every request but GET). */
    writes: () => requests.filter((request) => request.method !== 'GET'),
  };
}
