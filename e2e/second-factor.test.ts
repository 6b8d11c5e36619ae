import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '../server/modules/auth/totp.ts';
import { api } from './helpers/api.ts';
import { DEMO_EMAILS, DEMO_PASSWORD, signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
/** The key as the page shows it (groups of four), as the app would take it. */
const secretOn = async (page: Page) => (await page.getByTestId('totp-secret').textContent())!.replaceAll(' ', '');
/**
 * A code for the next 30-second step: the server takes each step once, and accepts the one
 * after the current (a phone a little ahead), so a sign-in right after enrolling needs no wait.
 */
const nextCode = (secret: string) => totpCodeAt(secret, new Date(Date.now() + 30_000));

/** The authenticator flow on the page: scan (read the key), the first code, the recovery codes saved. */
async function enrolOnPage(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await page.getByTestId('totp-qr').waitFor();
  const secret = await secretOn(page);
  await page.getByLabel('6-digit code').fill(totpCodeAt(secret, new Date()));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
  expect(codes).toHaveLength(10);
  return { secret, codes };
}

/** The sign-in page's password step, as a user fills it (what follows depends on her factors and the policy). */
async function passwordStep(page: Page, email: string, origin = '') {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('second factor: enrolment, the sign-in step, recovery codes', () => {
  it('adds an authenticator app from the profile menu, saves the recovery codes, then asks for a code at sign-in', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse2');
    await page.getByTestId('user-summary').click();
    await page.getByTestId('profile-menu').getByRole('link', { name: 'Security' }).click();
    await page.waitForURL('/account/security');
    await page.getByTestId('totp-card').getByTestId('no-factors').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const { secret, codes } = await enrolOnPage(page);
    // The download holds the same codes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('recovery-codes-download').click()]);
    const file = await readFile((await download.path())!, 'utf8');
    for (const code of codes) expect(file).toContain(code);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Going on only once they are saved.
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true);
    await page.getByLabel('I have saved these codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('factor-row').waitFor();
    // Dates as the rest of the app writes them, in the clinic's zone, not the browser's '11/27/2026' (issue 50).
    const added = await page.getByTestId('factor-row').innerText();
    expect(added).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(added).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/);
    expect(await page.getByTestId('security-standing').textContent()).toContain('protected by a second factor');
    expect(await page.getByTestId('recovery-codes-left').textContent()).toContain('10 of 10 left');

    // Signing in again: the password, then the code.
    const fresh = await e2e.newPage();
    await passwordStep(fresh, DEMO_EMAILS.nurse2);
    await fresh.getByTestId('second-factor-step').waitFor();
    expect(await seriousA11yViolations(fresh)).toEqual([]);
    await fresh.getByLabel('6-digit code from your app').fill(totpCodeAt(secret, new Date(Date.now() + 3_600_000)));
    await fresh.getByRole('button', { name: 'Verify' }).click();
    await fresh.getByTestId('sign-in-error').getByText('Code not accepted').waitFor();
    await fresh.getByLabel('6-digit code from your app').fill(nextCode(secret));
    await fresh.getByRole('button', { name: 'Verify' }).click();
    await fresh.waitForURL('/');
    await fresh.getByTestId('user-summary').waitFor();

    // A recovery code instead, once.
    const third = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await passwordStep(third, DEMO_EMAILS.nurse2);
    await third.getByRole('radio', { name: 'Recovery code' }).click();
    await third.getByLabel('Recovery code').fill(codes[0]!);
    await third.getByRole('button', { name: 'Verify' }).click();
    await third.waitForURL('/');
    await third.goto('/account/security');
    expect(await third.getByTestId('recovery-codes-left').textContent()).toContain('9 of 10 left');
    expect(await overflow(third)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(third)).toEqual([]);
  });

  it('a role the admin makes required with no grace can do nothing but enrol; enrolling opens the app', async () => {
    const admin = e2e.page;
    await signInAs(admin, 'admin', { landOn: '/admin?tab=settings' });
    const card = admin.getByTestId('second-factor-policy');
    await card.getByRole('button', { name: 'Save policy' }).waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await card.getByLabel('Policy for Scribe').selectOption('required');
    await card.getByLabel('Days to enrol for Scribe').fill('0');
    await card.getByRole('button', { name: 'Save policy' }).click();
    await card
      .getByTestId('policy-scribe')
      .getByText(/required since/)
      .waitFor();

    const scribe = await e2e.newPage();
    await passwordStep(scribe, DEMO_EMAILS.scribe);
    await scribe.getByTestId('enrol-required').waitFor();
    expect(await scribe.getByTestId('enrol-required').innerText()).toMatch(/since [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect((await api(scribe, 'GET', '/api/notes')).status).toBe(403);
    expect(await seriousA11yViolations(scribe)).toEqual([]);
    await enrolOnPage(scribe);
    await scribe.getByLabel('I have saved these codes').check();
    await scribe.getByRole('button', { name: 'Continue' }).click();
    await scribe.getByTestId('user-summary').waitFor();
    expect((await api(scribe, 'GET', '/api/notes')).status).toBe(200);

    await card.getByLabel('Policy for Scribe').selectOption('optional');
    await card.getByRole('button', { name: 'Save policy' }).click();
    await card
      .getByTestId('policy-scribe')
      .getByText(/required since/)
      .waitFor({ state: 'detached' });
  });
});

describe("passkeys and security keys (WebAuthn), with Chromium's virtual authenticator", () => {
  it('registers a passkey from the Security page, signs in with it, and proves a sensitive step with it', async () => {
    // A passkey is bound to a host name, never an IP address: this test opens the app as localhost.
    const page = await e2e.newPage();
    const origin = e2e.baseUrl.replace('127.0.0.1', 'localhost');
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await passwordStep(page, DEMO_EMAILS.scheduler, origin);
    await page.waitForURL(`${origin}/`);
    await page.goto(`${origin}/account/security`);
    const card = page.getByTestId('passkey-card');
    await card.getByRole('button', { name: 'Add a passkey or security key' }).click();
    await card.getByLabel('Name (optional)').fill('This laptop');
    await card.getByRole('button', { name: 'Add a passkey or security key' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByLabel('I have saved these codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await card.getByTestId('factor-row').locator('p', { hasText: 'This laptop' }).waitFor();
    // The key holds one discoverable credential for this site: a passkey.
    const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);

    // Signed out, then in again: the password, then the passkey (no code typed).
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${origin}/`);
    await passwordStep(page, DEMO_EMAILS.scheduler, origin);
    const step = page.getByTestId('second-factor-step');
    await step.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // She has a passkey and recovery codes, no app: no app code is asked for (issue 50).
    expect(await step.getByText('Authenticator app').count()).toBe(0);
    expect(await step.getByLabel('6-digit code from your app').count()).toBe(0);
    expect(await step.getByLabel('Recovery code').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Use a passkey or security key' }).click();
    await page.waitForURL(`${origin}/`);
    await page.getByTestId('user-summary').waitFor();

    // A sensitive step proved with the passkey: new recovery codes.
    await page.goto(`${origin}/account/security`);
    await page.getByRole('button', { name: 'Make new codes' }).click();
    expect(await page.getByRole('dialog').getByLabel('6-digit code from your app').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Use a passkey or security key' }).click();
    await page.getByTestId('recovery-codes').waitFor();
  });
});
