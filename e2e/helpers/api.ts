import type { Page } from 'playwright-core';

export interface TApiAnswer<T> {
  status: number;
  json: T;
  headers: Record<string, string>;
}

/**
 * A same-origin API call from inside the page, so it carries that page's session cookie and
 * passes the server's same-origin checks exactly as the app's own calls do.
 */
export async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<TApiAnswer<T>> {
  return page.evaluate(
    async ([m, u, b]) => {
      const response = await fetch(u, {
        method: m,
        headers: b === undefined ? {} : { 'Content-Type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: response.status, json: await response.json(), headers: Object.fromEntries(response.headers.entries()) };
    },
    [method, url, body] as const,
  );
}
