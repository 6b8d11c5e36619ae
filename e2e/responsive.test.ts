import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from './helpers/auth.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

/** How far the page is wider than the screen; 0 when nothing needs sideways scrolling. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('at 375 px nothing scrolls sideways', () => {
  it('for a visitor: landing and sign-in', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    for (const path of ['/', '/login', '/no-such-screen']) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      expect(await overflow(page), path).toBe(0);
    }
    await page.goto('/');
    const getStarted = await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).boundingBox();
    expect(getStarted!.x + getStarted!.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
  });

  it('for staff: dashboard and patients', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'admin');
    for (const [path, heading] of [
      ['/', /Welcome/],
      ['/patients', 'Patients'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await overflow(page), path).toBe(0);
    }
  });
});
