import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from './helpers/auth.ts';
import { useE2E } from './helpers/suite.ts';

// Issue 56: going Back to a signed-in screen is instant (the browser's back/forward cache), and
// a page kept as its user signed out never shows her screen to the next person at a shared
// computer (web/src/lib/kept-page.ts). Playwright turns the cache off; this file's browser keeps it.
const e2e = useE2E({ backForwardCache: true });

interface TReturn {
  /** The page came back from the cache (not loaded afresh). */
  kept: boolean;
  /** The body as the page came back, once the app's own pageshow listener had run. */
  bodyVisibility: string;
  cardsOnPage: number;
}

/** Reports each time the page, as it is now, is shown again. */
async function watchReturns(page: Page): Promise<TReturn[]> {
  const returns: TReturn[] = [];
  await page.exposeFunction('reportReturn', (seen: TReturn) => void returns.push(seen));
  await page.evaluate(() => {
    // Listeners run in the order they were added: the app's has run when this one does.
    window.addEventListener('pageshow', (event) => {
      (window as unknown as { reportReturn: (seen: TReturn) => void }).reportReturn({
        kept: event.persisted,
        bodyVisibility: getComputedStyle(document.body).visibility,
        cardsOnPage: document.querySelectorAll('[data-testid=patient-card]').length,
      });
    });
  });
  return returns;
}

async function onPatients(page: Page): Promise<void> {
  await signInAs(page, 'admin', { landOn: '/patients' });
  await expect.poll(() => page.getByTestId('patient-card').count()).toBeGreaterThan(0);
}

describe('Back to a signed-in screen', () => {
  it('comes back from the cache at once, and is shown once the server confirms the same user', async () => {
    const { page } = e2e;
    await onPatients(page);
    const returns = await watchReturns(page);

    await page.goto('/api/health');
    await page.goBack({ waitUntil: 'commit' });

    await expect.poll(() => returns.length).toBe(1);
    expect(returns[0]).toMatchObject({ kept: true, bodyVisibility: 'hidden' });
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).visibility)).toBe('visible');
    expect(await page.getByTestId('patient-card').first().isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/patients');
  });

  it('after Logout, Back never shows her patients: the kept page stays hidden, then the sign-in page loads', async () => {
    const { page } = e2e;
    await onPatients(page);
    const returns = await watchReturns(page);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goBack({ waitUntil: 'commit' });

    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/patients');
    await page.getByLabel('Email').waitFor();
    // The kept page came back with her cards in it, hidden; the fresh load that replaced it has none.
    expect(returns).toEqual([{ kept: true, bodyVisibility: 'hidden', cardsOnPage: expect.any(Number) as number }]);
    expect(returns[0]!.cardsOnPage).toBeGreaterThan(0);
    expect(await page.getByTestId('patient-card').count()).toBe(0);
  });
});
