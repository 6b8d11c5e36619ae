import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './helpers/axe.ts';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from './helpers/browser.ts';
import { overhang } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

describe('landing page (visitors)', () => {
  it('shows every section the spec lists', async () => {
    const { page } = e2e;
    await page.goto('/');

    const header = page.getByRole('banner');
    await header.getByTestId('hipaa-badge').waitFor();
    expect(await header.getByTestId('hipaa-badge').innerText()).toContain('HIPAA');
    expect(await header.getByRole('link', { name: 'Get Started' }).isVisible()).toBe(true);

    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/\w/);
    expect(await page.getByRole('region', { name: 'At a glance' }).locator('dd').count()).toBe(4);
    expect(await page.getByTestId('feature-card').count()).toBe(6);
    expect(await page.getByRole('region', { name: /Why choose/ }).isVisible()).toBe(true);
    expect(await page.getByTestId('testimonial').count()).toBe(3);

    const cta = page.getByRole('region', { name: /Ready to/ });
    for (const name of ['Start Free Trial', 'View Demo']) {
      expect(await cta.getByRole('link', { name }).isVisible(), name).toBe(true);
    }
    expect(await cta.getByRole('button', { name: 'Contact Sales' }).isVisible()).toBe(true);
    expect(await page.getByRole('contentinfo').innerText()).toContain('MediCare EHR');
    // A visitor gets no logged-out toast on the landing page.
    expect(await page.getByText('You are logged out').count()).toBe(0);
  });

  for (const name of ['Get Started', 'Start Free Trial', 'View Demo']) {
    it(`'${name}' reaches the sign-in page`, async () => {
      const { page } = e2e;
      await page.goto('/');
      await page.getByRole('link', { name }).click();
      await page.waitForURL('/login');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.getByLabel('Email').isVisible()).toBe(true);
      expect(await page.getByLabel('Password').isVisible()).toBe(true);
    });
  }

  it("'Contact Sales' says how to get help, with no placeholder address, and leads to the demo (issue 29)", async () => {
    for (const viewport of [DESKTOP_VIEWPORT, MOBILE_VIEWPORT]) {
      const page = await e2e.newPage({ viewport });
      await page.goto('/');
      const contact = page.getByRole('button', { name: 'Contact Sales' });
      await contact.click();
      const dialog = page.getByRole('dialog', { name: 'Getting help with MediCare EHR' });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain("Your clinic's administrator");
      // The demo server: the way in is the demo clinic's accounts.
      expect(await dialog.innerText()).toContain('the sign-in page lists its accounts');
      expect(await page.content()).not.toMatch(/example\.com|mailto:/);
      expect(await overhang(dialog, 'viewport')).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await contact.evaluate((el) => el === document.activeElement)).toBe(true);
      // 'Close' closes it too; its link leads to the demo clinic's sign-in.
      await contact.click();
      await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
      await dialog.waitFor({ state: 'hidden' });
      await contact.click();
      await dialog.getByRole('link', { name: 'View Demo' }).click();
      await page.waitForURL('/login');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    }
  });

  it('shows the not-found page for an unknown path', async () => {
    const { page } = e2e;
    const response = await page.goto('/no-such-screen');
    expect(response?.status()).toBe(200); // the server's SPA fallback; the 404 is drawn by the app
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go to home page' }).click();
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
  });
});
