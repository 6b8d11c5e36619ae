import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAILS, DEMO_PASSWORD, signInAs, type TDemoAccount } from './helpers/auth.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// Issue 29: a signed-in page asks for the dashboard's data alongside its code, instead of after
// it (web/src/signed-in-start.ts, docs/decisions/front-end-delivery.md). The early reads spell
// out the URLs the dashboard's queries ask for; these tests fail when the two drift apart (a
// read is asked for twice) or when the reads wait for the code again.

const LAYOUT_READS = ['/api/auth/user', '/api/clinic', '/api/notifications', '/api/dashboard/stats'];
const isDayAppointments = (url: URL) => url.pathname === '/api/appointments' && url.searchParams.has('date');

/** The dashboard with its content: figures, notifications panel, today's schedule (or their empty states). */
async function dashboardContent(page: Page, withSchedule = true): Promise<void> {
  // A supplier's figures are her orders by status (issue 31); everyone else's, the clinic's.
  await page.locator(withSchedule ? '[data-testid=stat-todayAppointments] .text-3xl' : '[data-testid=stat-ordered] .text-3xl').waitFor();
  await page.locator('[data-testid=active-notification], [data-testid=notifications-empty]').first().waitFor();
  if (withSchedule) await page.locator('[data-testid=schedule-entry], [data-testid=schedule-empty]').first().waitFor();
}

/** Every request and finished response of the page, in the order the browser reported them. */
function recordNetwork(page: Page): { events: { kind: 'sent' | 'done'; url: URL; request: Request }[]; apiReads: () => string[] } {
  const events: { kind: 'sent' | 'done'; url: URL; request: Request }[] = [];
  page.on('request', (request) => events.push({ kind: 'sent', url: new URL(request.url()), request }));
  page.on('requestfinished', (request) => events.push({ kind: 'done', url: new URL(request.url()), request }));
  const apiReads = () =>
    events.filter((e) => e.kind === 'sent' && e.request.method() === 'GET' && e.url.pathname.startsWith('/api/')).map((e) => e.url.pathname + e.url.search);
  return { events, apiReads };
}

/** A browser with an empty cache and a session, as after signing in yesterday and coming back. */
async function signedInColdPage(account: TDemoAccount): Promise<Page> {
  const page = await e2e.newPage();
  const response = await page
    .context()
    .request.post('/api/auth/login', { data: { email: DEMO_EMAILS[account], password: DEMO_PASSWORD }, headers: { origin: e2e.baseUrl } });
  expect(response.status()).toBe(200);
  return page;
}

describe("the dashboard's first load", () => {
  it("asks for each of its reads once, while the signed-in app's code is still arriving", async () => {
    const page = await signedInColdPage('admin');
    const network = recordNetwork(page);
    await page.goto('/');
    await dashboardContent(page);

    const reads = network.apiReads();
    for (const read of LAYOUT_READS)
      expect(
        reads.filter((url) => url === read),
        read,
      ).toHaveLength(1);
    expect(reads.filter((url) => isDayAppointments(new URL(url, e2e.baseUrl)))).toHaveLength(1);
    // Sent before the signed-in app's code had arrived, not after it ran.
    const codeArrived = network.events.findIndex((e) => e.kind === 'done' && /^\/assets\/signed-in-.*\.js$/.test(e.url.pathname));
    expect(codeArrived).toBeGreaterThan(-1);
    for (const read of LAYOUT_READS) {
      expect(
        network.events.findIndex((e) => e.kind === 'sent' && e.url.pathname === read),
        read,
      ).toBeLessThan(codeArrived);
    }
  });

  it('reads no appointments for a supplier, who may not, and nothing is refused', async () => {
    const page = await signedInColdPage('supplier');
    const network = recordNetwork(page);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/');
    await dashboardContent(page, false);
    const reads = network.apiReads();
    for (const read of LAYOUT_READS)
      expect(
        reads.filter((url) => url === read),
        read,
      ).toHaveLength(1);
    expect(reads.filter((url) => url.startsWith('/api/appointments'))).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('after signing in on the page, asks for each read once', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO_EMAILS.scheduler);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const network = recordNetwork(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('/');
    await dashboardContent(page);
    const reads = network.apiReads();
    for (const read of LAYOUT_READS)
      expect(
        reads.filter((url) => url === read),
        read,
      ).toHaveLength(1);
    expect(reads.filter((url) => isDayAppointments(new URL(url, e2e.baseUrl)))).toHaveLength(1);
  });

  it('a stale signed-in hint: the refused early reads answer nobody after signing in', async () => {
    const { page, context, baseUrl } = e2e;
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseUrl }]);
    const network = recordNetwork(page);
    await page.goto('/login');
    // The early reads went out with the hint and were refused: there was no session.
    await page.getByLabel('Email').fill(DEMO_EMAILS.nurse);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const early = network.apiReads().length;
    expect(early).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('/');
    await dashboardContent(page);
    // Read again with the new session, and no 'Unauthorized' from the old answers.
    expect(network.apiReads().slice(early)).toEqual(expect.arrayContaining(['/api/clinic', '/api/notifications', '/api/dashboard/stats']));
    expect(await page.getByText('Unauthorized', { exact: true }).count()).toBe(0);
    expect(page.url()).toBe(`${baseUrl}/`);
  });
});

describe("a screen's first visit", () => {
  it('loads no code once the dashboard has settled: every screen the user may open was loaded meanwhile', async () => {
    const { page } = e2e;
    // The screens load one after another in the sidebar's order: the Admin Panel (which asks for
    // its first tab at once), then Reports, the last.
    const preloaded = Promise.all(
      ['user-management-tab', 'reports-page'].map((chunk) =>
        page.waitForResponse((response) => new RegExp(`/assets/${chunk}-[^/]*\\.js$`).test(response.url())),
      ),
    );
    await signInAs(page, 'admin');
    await dashboardContent(page);
    await preloaded;
    const network = recordNetwork(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Patient Notes' }).click();
    await page.locator('[data-testid=note-card], [data-testid=notes-empty]').first().waitFor();
    // (The last preload may still be finishing: only what the visit itself asked for counts.)
    expect(network.events.filter((e) => e.kind === 'sent' && e.url.pathname.startsWith('/assets/')).map((e) => e.url.pathname)).toEqual([]);
  });
});
