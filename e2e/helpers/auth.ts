import type { Page } from 'playwright-core';

/** The demo clinic every test server seeds (ARCHITECTURE.md, contract). */
export const DEMO_PASSWORD = 'demo-clinic-2026';
export const DEMO_EMAILS = {
  admin: 'admin@demo.clinic',
  scheduler: 'scheduler@demo.clinic',
  nurse: 'nurse@demo.clinic',
  nurse2: 'nurse2@demo.clinic',
  scribe: 'scribe@demo.clinic',
  supplier: 'supplier@demo.clinic',
} as const;
export type TDemoAccount = keyof typeof DEMO_EMAILS;

export interface TSignInOptions {
  /** 'form' drives the real sign-in page; 'api' posts to /api/auth/login with the context's cookies. */
  via?: 'form' | 'api';
  /** Where to go once signed in (default '/'). */
  landOn?: string;
}

/**
 * Signs the page's browser context in as a demo account and waits until a signed-in screen
 * (the layout's top bar with the user's summary) is showing. The context must have been
 * created with `baseURL` (useE2E does that), so paths here are relative.
 */
export async function signInAs(page: Page, account: TDemoAccount, options: TSignInOptions = {}): Promise<void> {
  const { via = 'api', landOn = '/' } = options;
  const email = DEMO_EMAILS[account];

  if (via === 'form') {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('/');
    await page.getByTestId('user-summary').waitFor();
    if (landOn !== '/') await page.goto(landOn);
  } else {
    // The context's own request client keeps its cookies with the pages' (the session and the
    // signed-in hint), so the first page load is already the screen asked for: a load of the app
    // less per test than posting from the sign-in page.
    const response = await page.context().request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
    if (response.status() !== 200) throw new Error(`Sign-in as ${email} answered ${response.status()}`);
    await page.goto(landOn);
  }
  // Every screen a signed-in user can land on (a layout screen or the not-found page) has an h1;
  // the full-screen 'Loading...' of the user check has none.
  await page.locator('h1').first().waitFor();
}
