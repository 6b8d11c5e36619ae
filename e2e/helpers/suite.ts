import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser } from './browser.ts';
import { REPO_ROOT, startServer, type TRestartOptions, type TRunningServer } from './server.ts';

const RESULTS_DIR = path.join(REPO_ROOT, 'test-results', 'e2e');
/** Playwright's own waits give up well inside the test timeout, so failures say what they waited for. */
const ACTION_TIMEOUT_MS = 10_000;

export interface TE2E {
  readonly baseUrl: string;
  readonly browser: Browser;
  /** A fresh context (own cookies) per test, desktop-sized unless the test opens another. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** Opens another context with its own viewport or options; closed after the test. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** What the server printed, for diagnosing a failure. */
  serverOutput(): string;
  /** Stops the file's server and starts it again on the same port and database (helpers/server.ts). */
  restartServer(options?: TRestartOptions): Promise<void>;
}

function fileSafe(name: string): string {
  return name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 120);
}

export interface TE2EOptions {
  /** More of the server's environment for this file (the lab interface's HL7_MLLP_PORT). */
  env?: Record<string, string>;
  /** A browser with the back/forward cache on (Playwright turns it off). */
  backForwardCache?: boolean;
}

/**
 * Registers the hooks of a browser test file: one real server (fresh embedded database with
 * the demo clinic) and one Chromium for the file, a new context per test, and on failure a
 * full-page screenshot of every open page in test-results/e2e/ plus the browser's errors.
 */
export function useE2E(options: TE2EOptions = {}): TE2E {
  let server: TRunningServer | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  let page: Page | undefined;
  let browserErrors: string[] = [];
  let cspViolations: string[] = [];

  async function openContext(options: BrowserContextOptions = {}): Promise<Page> {
    if (!browser || !server) throw new Error('useE2E: the server or browser did not start');
    const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT, ...options, baseURL: server.baseUrl });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    contexts.push(context);
    const opened = await context.newPage();
    opened.on('pageerror', (error) => browserErrors.push(`pageerror: ${error.message}`));
    opened.on('console', (message) => {
      if (message.type() === 'error') browserErrors.push(`console: ${message.text()}`);
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${opened.url()}: ${message.text()}`);
    });
    // Some violations never reach the console (an eval that a library tries and catches); the
    // browser still reports them as issues, and so does Lighthouse.
    const devtools = await context.newCDPSession(opened);
    devtools.on('Audits.issueAdded', ({ issue }) => {
      if (issue.code === 'ContentSecurityPolicyIssue') cspViolations.push(`${opened.url()}: ${JSON.stringify(issue.details)}`);
    });
    await devtools.send('Audits.enable');
    return opened;
  }

  beforeAll(async () => {
    // Side by side; whichever started is kept, so afterAll stops it even when the other failed.
    const [started, launched] = await Promise.allSettled([
      startServer(options.env ?? {}, inject('serverTemplate')),
      launchBrowser({ backForwardCache: options.backForwardCache }),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    browserErrors = [];
    cspViolations = [];
    page = await openContext();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      await mkdir(RESULTS_DIR, { recursive: true });
      const base = fileSafe(`${path.basename(task.file.name, '.test.ts')}-${task.name}`);
      let index = 0;
      for (const context of contexts) {
        for (const open of context.pages()) {
          const file = path.join(RESULTS_DIR, `${base}${index ? `-${index}` : ''}.png`);
          index += 1;
          await open.screenshot({ path: file, fullPage: true }).catch(() => undefined);
          console.error(`Screenshot of the failed test: ${path.relative(REPO_ROOT, file)} (${open.url()})`);
        }
      }
      if (browserErrors.length) console.error(`Browser errors:\n${browserErrors.join('\n')}`);
    }
    // A route handler still running (a page that keeps reloading into an intercepted call)
    // can hold context.close() for minutes; drop the handlers first, without waiting on them.
    for (const context of contexts) {
      await Promise.all(context.pages().map((open) => open.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined)));
      await context.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
    }
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
    page = undefined;
    // Every browser test also checks that no screen it visited broke the CSP.
    if (cspViolations.length) throw new Error(`Content Security Policy violations:\n${cspViolations.join('\n')}`);
  });

  return {
    get baseUrl() {
      if (!server) throw new Error('useE2E: the server did not start');
      return server.baseUrl;
    },
    get browser() {
      if (!browser) throw new Error('useE2E: the browser did not start');
      return browser;
    },
    get context() {
      if (!page) throw new Error('useE2E: no page outside a test');
      return page.context();
    },
    get page() {
      if (!page) throw new Error('useE2E: no page outside a test');
      return page;
    },
    newPage: openContext,
    serverOutput: () => server?.output() ?? '',
    restartServer: (options) => {
      if (!server) throw new Error('useE2E: the server did not start');
      return server.restart(options);
    },
  };
}
