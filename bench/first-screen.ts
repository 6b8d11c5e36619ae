// Cold-cache timings of the signed-in app in Debian's Chromium against the real server (issue 29):
// - dashboardMs: a signed-in browser with an empty cache opens '/', until the dashboard shows
//   its content (the figures, the notifications panel and today's schedule, or their empty
//   states), from the start of the navigation;
// - signInMs: from the click on 'Sign in' on the sign-in page to the same content;
// - screens: from the click on a sidebar link to that screen's content, each screen opened
//   for the first time, in its own cold browser after the dashboard has settled (no request
//   for 500 ms: the user reads the dashboard before moving on);
// with the requests the browser made before the dashboard's content showed.
// Targets: dashboard under 1.0 s, every screen's first visit under 0.5 s.
//   npx tsx bench/first-screen.ts                       (builds the web app first)
//   BENCH_BASELINE=<rev> npx tsx bench/first-screen.ts  (also builds <rev> and measures it
//                                                         alongside, rounds interleaved)
// BENCH_FIRST_SCREEN_ROUNDS (5) rounds; the median is printed. Other load on the machine moves
// every figure: compare a baseline in the same run rather than across runs.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../e2e/helpers/auth.ts';
import { CHROMIUM_PATH, DESKTOP_VIEWPORT } from '../e2e/helpers/browser.ts';
import type { TRunningServer } from '../e2e/helpers/server.ts';
import { median, variants } from './baseline.ts';

const ROUNDS = Number(process.env.BENCH_FIRST_SCREEN_ROUNDS ?? 5);

/** What shows that the dashboard has its content: every panel past its loading state. */
const DASHBOARD_CONTENT = [
  '[data-testid=stat-todayAppointments] .text-3xl',
  '[data-testid=active-notification], [data-testid=notifications-empty]',
  '[data-testid=schedule-entry], [data-testid=schedule-empty]',
];

/** Each screen of the sidebar, its link's name (a badge may follow it) and what shows it has its content. */
const SCREENS = [
  { name: 'patients', link: 'Patients', content: ['[data-testid=patient-card], [data-testid=patients-empty]'] },
  { name: 'appointments', link: 'Appointments', content: ['[data-testid=appointment-row], [data-testid=appointments-empty]'] },
  { name: 'notes', link: 'Patient Notes', content: ['[data-testid=note-card], [data-testid=notes-empty]'] },
  { name: 'teamChat', link: 'Team Chat', content: ['[data-testid=room-entry], [data-testid=rooms-empty]'] },
  { name: 'admin', link: 'User Management', content: ['[data-testid=user-row], [data-testid=users-empty]'] },
] as const;

// Runs in the page before its own scripts (a string: the bench's compiled helpers do not exist
// there, and the page's CSP forbids eval). `__watch(selectors)` records, on the page's clock,
// when every selector first matches, and the last click before it.
const WATCHER = `
  window.__watch = (selectors) => {
    window.__shownAt = undefined;
    const shown = () => selectors.every((selector) => document.querySelector(selector));
    const observer = new MutationObserver(() => {
      if (window.__shownAt === undefined && shown()) { window.__shownAt = performance.now(); observer.disconnect(); }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  };
  addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
  window.__watch(${JSON.stringify(DASHBOARD_CONTENT)});
`;

type TWindow = { __shownAt?: number; __clickAt?: number; __watch: (selectors: readonly string[]) => void };

async function coldContext(browser: Browser, server: TRunningServer, signedIn: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP_VIEWPORT });
  await context.addInitScript({ content: WATCHER });
  if (signedIn) {
    // The cookies land in this context's jar; its cache stays empty.
    const response = await context.request.post('/api/auth/login', {
      data: { email: DEMO_EMAILS.admin, password: DEMO_PASSWORD },
      headers: { origin: server.baseUrl },
    });
    if (response.status() !== 200) throw new Error(`Sign-in answered ${response.status()}`);
  }
  return context;
}

async function shownAt(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as unknown as TWindow).__shownAt !== undefined, null, { timeout: 30_000 });
  return page.evaluate(() => (window as unknown as TWindow).__shownAt!);
}

/** A signed-in browser with an empty cache opens the dashboard. */
async function dashboard(browser: Browser, server: TRunningServer): Promise<{ ms: number; requests: number }> {
  const context = await coldContext(browser, server, true);
  try {
    const page = await context.newPage();
    await page.goto('/');
    const ms = await shownAt(page);
    // The page itself and what it asked for before its content showed (the other screens' code
    // is asked for right after, while this waits to notice).
    const requests = await page.evaluate((at) => 1 + performance.getEntriesByType('resource').filter((entry) => entry.startTime <= at).length, ms);
    return { ms, requests };
  } finally {
    await context.close();
  }
}

/** From the click on 'Sign in' (the sign-in page already showing) to the dashboard's content. */
async function signIn(browser: Browser, server: TRunningServer): Promise<number> {
  const context = await coldContext(browser, server, false);
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO_EMAILS.admin);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const shown = await shownAt(page);
    return shown - (await page.evaluate(() => (window as unknown as TWindow).__clickAt!));
  } finally {
    await context.close();
  }
}

/** A screen's first visit: from the click on its sidebar link, the dashboard settled, to its content. */
async function firstVisit(browser: Browser, server: TRunningServer, screen: (typeof SCREENS)[number]): Promise<number> {
  const context = await coldContext(browser, server, true);
  try {
    const page = await context.newPage();
    await page.goto('/');
    await shownAt(page);
    await page.waitForLoadState('networkidle');
    await page.evaluate((selectors) => (window as unknown as TWindow).__watch(selectors), screen.content);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: new RegExp(`^${screen.link}( |$)`) })
      .click();
    const shown = await shownAt(page);
    return shown - (await page.evaluate(() => (window as unknown as TWindow).__clickAt!));
  } finally {
    await context.close();
  }
}

type TRound = Record<string, number>;

async function round(browser: Browser, server: TRunningServer): Promise<TRound> {
  const figures: TRound = {};
  const first = await dashboard(browser, server);
  figures.dashboardMs = first.ms;
  figures.dashboardRequests = first.requests;
  figures.signInMs = await signIn(browser, server);
  for (const screen of SCREENS) figures[`${screen.name}Ms`] = await firstVisit(browser, server, screen);
  return figures;
}

const toMedians = (rounds: TRound[]): TRound => Object.fromEntries(Object.keys(rounds[0]!).map((key) => [key, Math.round(median(rounds.map((r) => r[key]!)))]));

const all = await variants();
const servers = new Map<string, TRunningServer>();
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  for (const variant of all) servers.set(variant.name, await variant.start());
  const rounds = new Map<string, TRound[]>(all.map((variant) => [variant.name, []]));
  // The first round of each warms the servers (their file reads, the database's first queries)
  // and is not counted; the browser's cache is empty in every round.
  for (let i = 0; i <= ROUNDS; i += 1) {
    for (const variant of all) {
      const figures = await round(browser, servers.get(variant.name)!);
      // Each round as it ends, on stderr: the spread behind the medians.
      console.error(`${variant.name} round ${i}${i === 0 ? ' (warm-up)' : ''}: ${JSON.stringify(figures)}`);
      if (i > 0) rounds.get(variant.name)!.push(figures);
    }
  }
  const medians = Object.fromEntries([...rounds].map(([name, list]) => [name, toMedians(list)]));
  console.log(JSON.stringify({ benchmark: 'first-screen', rounds: ROUNDS, medians }, null, 2));
} finally {
  await browser.close();
  for (const server of servers.values()) await server.stop();
  for (const variant of all) await variant.cleanUp();
}
