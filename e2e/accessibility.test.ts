import { describe, expect, it } from 'vitest';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

describe('accessibility (axe-core, WCAG 2.1 AA): no serious or critical violations', () => {
  it('landing page', async () => {
    const { page } = e2e;
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('sign-in page, with the demo accounts and after a refused sign-in', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.getByTestId('demo-accounts').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill('admin@demo.clinic');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('sign-in-error').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('dashboard (admin, with the Administration group)', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    await page.getByTestId('stat-todayAppointments').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('dashboard on a small screen with the sidebar open', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'nurse');
    await page.getByTestId('sidebar-toggle').click();
    await page.locator('#app-sidebar').waitFor({ state: 'visible' });
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('patients page, then its dialog with field errors and with the duplicate warning', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/patients' });
    await page.getByTestId('patient-card').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
    await dialog.getByLabel('Email', { exact: true }).fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create Patient' }).click();
    await dialog.getByTestId('lastName-error').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The demo clinic's Olivia Hart, born 1984-03-12.
    await dialog.getByLabel('First name').fill('Olivia');
    await dialog.getByLabel('Last name').fill('Hart');
    await dialog.getByLabel('Email', { exact: true }).fill('');
    await dialog.getByLabel('Date of birth').fill('1984-03-12');
    await dialog.getByRole('button', { name: 'Create Patient' }).click();
    await dialog.getByTestId('duplicate-warning').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('patients page on a small screen: no-match search, and the edit dialog', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'scheduler', { landOn: '/patients' });
    await page.getByTestId('patient-card').first().getByRole('button', { name: /^Edit/ }).click();
    await page.getByRole('dialog', { name: 'Edit Patient' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    await page.getByPlaceholder('Search patients by name or email...').fill('no-such-patient-anywhere');
    await page.getByTestId('patients-empty').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('not-found page', async () => {
    const { page } = e2e;
    await page.goto('/missing');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
