import { describe, expect, it } from 'vitest';
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
    for (const name of ['Start Free Trial', 'Contact Sales', 'View Demo']) {
      expect(await cta.getByRole('link', { name }).isVisible(), name).toBe(true);
    }
    expect(await cta.getByRole('link', { name: 'Contact Sales' }).getAttribute('href')).toMatch(/^mailto:/);
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

  it('shows the not-found page for an unknown path', async () => {
    const { page } = e2e;
    const response = await page.goto('/no-such-screen');
    expect(response?.status()).toBe(200); // the server's SPA fallback; the 404 is drawn by the app
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go to home page' }).click();
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
  });
});
