import type { TCurrentUser } from '#domain/auth';
import type { TClinicInfo } from '#domain/settings';
import { peekEarlyRead, startEarlyRead } from './lib/early-reads.ts';
import { preloadable } from './lib/preloadable.ts';

/**
 * What a signed-in page waits for before its first screen has content, started side by side:
 * the signed-in app's code (the dashboard's with it), the user check, and the reads the layout
 * and the dashboard make. Before, each waited for the one before it: the app's code,
 * then the user, then the dashboard's code, then its reads, then today's appointments (which
 * need the clinic's today). See docs/decisions/front-end-delivery.md.
 *
 * app.tsx imports this, so it carries no TanStack Query and no zod: the landing page stays
 * light. That is why the URLs are spelled out here rather than taken from src/api/. Each is the
 * URL its src/api/ file reads, which then takes the early read instead of asking again
 * (lib/early-reads.ts); e2e/first-screen.test.ts fails when one is asked for twice.
 */

/**
 * The signed-in app's code, with its first screen's (app.tsx draws it once here); the dashboard
 * comes in the same chunks (web/build/signed-in-chunks.ts). Run in two steps, the part the
 * sign-in page shares (the query client's chunk: zod, TanStack Query) first: run at once, the
 * two kept the page from answering for 35 ms here, 140 ms under Lighthouse's slowed-down CPU.
 */
export const signedInApp = preloadable(async () => {
  await import('./lib/query-client.ts');
  const app = await import('./signed-in-app.tsx');
  await app.firstScreenLoaded;
  return app;
});

/** The current user (lib/session.ts). */
const USER_URL = '/api/auth/user';
/** The clinic's name in the top bar and its time zone, hence its today (api/settings/clinic.ts). */
const CLINIC_URL = '/api/clinic';
/**
 * Read by the layout on every signed-in screen: the bell's notifications
 * (api/notifications/notifications.ts) and the sidebar's counts (api/dashboard/dashboard-stats.ts),
 * which are also the dashboard's panel and figures.
 */
const LAYOUT_URLS = ['/api/notifications', '/api/dashboard/stats'];

/**
 * A signed-in page is starting on `path`: its reads, then its code. `user` is known right after
 * signing in; on a page load the user check starts here and the dashboard's appointments wait
 * for its answer (a supplier may not read them) and the clinic's (whose today).
 */
export function startSignedInPage(path: string, user?: TCurrentUser): void {
  // Asked for first: the server answers in turn, and the dashboard's reads wait for this one.
  const firstReads = path === '/' ? import('./pages/dashboard/first-reads.ts') : null;
  const signedIn = user ? Promise.resolve(user) : peekEarlyRead<TCurrentUser>(USER_URL);
  const clinic = peekEarlyRead<TClinicInfo>(CLINIC_URL);
  for (const url of LAYOUT_URLS) void startEarlyRead(url);
  if (firstReads) {
    void Promise.all([firstReads, signedIn]).then(([{ dashboardUserReads }, who]) => {
      if (who) for (const url of dashboardUserReads(who)) void startEarlyRead(url);
    });
    void Promise.all([firstReads, signedIn, clinic]).then(([{ dashboardClinicReads }, who, info]) => {
      if (who && info) for (const url of dashboardClinicReads(who, info)) void startEarlyRead(url);
    });
  }
  // Each import() asks for its chunk's own imports at once too (Vite's module preload).
  signedInApp.load().catch(() => undefined);
}
