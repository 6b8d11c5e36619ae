import { DEMO_HINT_COOKIE } from '#domain/demo-mode';

let demo: boolean | undefined;

/**
 * Whether this page is the demo clinic's: the server says so with the page itself (a cookie set
 * on every load of it, domain/demo-mode.ts), so no screen waits for a request to know. Read once:
 * it stays as it was when the page loaded.
 */
export function isDemoMode(): boolean {
  demo ??= document.cookie.split('; ').some((cookie) => cookie.startsWith(`${DEMO_HINT_COOKIE}=`));
  return demo;
}
