import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's full Chromium: what the benches measure with (Lighthouse, the first screen), as a user's browser runs. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * What the browser tests drive: Debian's chromium-headless-shell where it is installed (the same
 * Blink and V8 as the full browser, without the desktop browser around them: e2e/chart.test.ts
 * took 123 CPU-seconds in it against 179 in the full one, on a machine where the browser tests
 * are CPU-bound), else the full Chromium. CHROMIUM_PATH picks one.
 */
export const TEST_BROWSER_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH);

/**
 * The tests' browser, headless; no sandbox because tests often run as root in containers.
 * Playwright turns the back/forward cache off; `backForwardCache` keeps it, as a user's has it,
 * in the full Chromium (the headless shell has no back/forward cache at all).
 */
export function launchBrowser({ backForwardCache = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: backForwardCache ? CHROMIUM_PATH : TEST_BROWSER_PATH,
    headless: true,
    ...(backForwardCache && { ignoreDefaultArgs: ['--disable-back-forward-cache'] }),
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
}

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
export const MOBILE_VIEWPORT = { width: 375, height: 812 };
