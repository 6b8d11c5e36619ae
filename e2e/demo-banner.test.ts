import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_BANNER_TEXT } from '#domain/demo-mode';
import { signInAs } from './helpers/auth.ts';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

// Demo mode (the test server runs it) says so on every page: demo data is never patient data.
const e2e = useE2E();

const banner = (page: Page) => page.getByRole('status').filter({ hasText: DEMO_BANNER_TEXT });

/** The banner is at the very top, whole, and what comes next starts below it: it covers nothing. */
async function expectBannerAbove(page: Page, next: ReturnType<Page['locator']>, width: number) {
  await banner(page).waitFor();
  const box = (await banner(page).boundingBox())!;
  expect(box.y).toBe(0);
  expect(box.width).toBe(width);
  // One line of text, not a block that eats the screen.
  expect(box.height).toBeLessThanOrEqual(40);
  const below = (await next.boundingBox())!;
  expect(below.y).toBeGreaterThanOrEqual(box.y + box.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
}

describe('the demo banner', () => {
  for (const viewport of [DESKTOP_VIEWPORT, MOBILE_VIEWPORT]) {
    it(`shows on the landing and sign-in pages at ${viewport.width} px, above their headers`, async () => {
      const page = await e2e.newPage({ viewport });
      await page.goto('/');
      const header = page.getByRole('banner');
      await expectBannerAbove(page, header, viewport.width);
      expect(await header.getByRole('link', { name: 'Get Started' }).isVisible()).toBe(true);

      await page.goto('/login');
      await expectBannerAbove(page, page.getByRole('heading', { name: 'Sign in' }), viewport.width);
    });

    it(`shows on signed-in screens at ${viewport.width} px; the top bar, its menu and the page still fit the screen`, async () => {
      const page = await e2e.newPage({ viewport });
      await signInAs(page, 'admin');
      const topBar = page.getByRole('banner');
      await expectBannerAbove(page, topBar, viewport.width);
      expect(await page.getByTestId('sidebar-toggle').isVisible()).toBe(true);
      // The screen below the banner still fits: the content scrolls, not the page.
      expect(await page.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight)).toBe(0);

      await page.goto('/patients');
      await page.getByRole('heading', { level: 1, name: 'Patients' }).waitFor();
      await expectBannerAbove(page, topBar, viewport.width);
      if (viewport === MOBILE_VIEWPORT) {
        await page.getByTestId('sidebar-toggle').click();
        await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Appointments' }).click();
        await page.waitForURL('/appointments');
        await expectBannerAbove(page, topBar, viewport.width);
      }
    });
  }
});
