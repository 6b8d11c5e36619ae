import { describe, expect, it } from 'vitest';
import { api } from './helpers/api.ts';
import { DEMO_EMAILS, DEMO_PASSWORD, signInAs } from './helpers/auth.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

describe('sign-in page', () => {
  it('lists the demo accounts; one click fills the form and signing in lands on the dashboard', async () => {
    const { page } = e2e;
    await page.goto('/login');
    const list = page.getByTestId('demo-accounts');
    await list.waitFor();
    const listed = await list.getByRole('button').allInnerTexts();
    for (const email of Object.values(DEMO_EMAILS)) {
      expect(
        listed.some((text) => text.includes(email)),
        email,
      ).toBe(true);
    }

    const scribeButton = list.getByRole('button', { name: /scribe@demo\.clinic/ });
    const scribeName = (await scribeButton.innerText()).split('\n')[0]!.trim();
    await scribeButton.click();
    expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_EMAILS.scribe);
    expect(await page.getByLabel('Password').inputValue()).toBe(DEMO_PASSWORD);

    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('/');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.innerText()).toBe(`Welcome back, ${scribeName.split(' ')[0]}`);
    expect(await page.getByTestId('user-summary').innerText()).toContain(scribeName);
  });

  it('says so when the password is wrong, and stays on the sign-in page', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO_EMAILS.nurse2);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByTestId('sign-in-error');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    // No logged-out handling for a refused sign-in: no toast, no redirect.
    expect(await page.getByText('You are logged out').count()).toBe(0);
  });

  it('checks the form before sending it', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('sends a signed-in user who opens /login to the dashboard', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    await page.goto('/login');
    await page.waitForURL('/');
    await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  });
});

describe('logout', () => {
  it('ends the session and returns to the landing page', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { via: 'form' });
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('/');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    const { status } = await api(page, 'GET', '/api/auth/user');
    expect(status).toBe(401);
  });
});
