import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TAdminUser, TInviteResult } from '#domain/users';
import { api } from './helpers/api.ts';
import { DEMO_EMAILS, signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastOverTopBar, toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();
const PASSWORD = 'a long and quiet river stone';

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openUsers(page: Page) {
  await signInAs(page, 'admin');
  await page.goto('/admin?tab=users');
  await page.getByText('Current Users').waitFor();
}

describe('Admin Panel, User Management', () => {
  it('invites a user, who sets a password from the link and signs in; the link then refuses a second use', async () => {
    const { page } = e2e;
    await openUsers(page);
    const word = uniqueWord();
    const email = `${word}@clinic.example`;
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('First name').fill('Ada');
    await dialog.getByLabel('Last name').fill(word);
    await dialog.getByLabel('Role').selectOption('scribe');
    await dialog
      .getByRole('button', { name: /invite/i })
      .last()
      .click();
    const linkBox = dialog.locator('input[readonly]');
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(/\/set-password#token=/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The invitee, in a browser of their own.
    const invitee = await e2e.newPage();
    await invitee.goto(link);
    await invitee.getByText(email).waitFor();
    expect(invitee.url()).not.toContain('token=');
    await invitee.getByLabel('New password').fill('password1234');
    await invitee.getByLabel('Confirm password').fill('password1234');
    await invitee.getByRole('button', { name: /password/i }).click();
    await invitee.getByText('This password is too common; choose another').waitFor();
    await invitee.getByLabel('New password').fill(PASSWORD);
    await invitee.getByLabel('Confirm password').fill(PASSWORD);
    await invitee.getByRole('button', { name: /password/i }).click();
    await invitee.getByText('Password set').waitFor();
    expect(await seriousA11yViolations(invitee)).toEqual([]);

    await invitee.goto('/login');
    await invitee.getByLabel('Email').fill(email);
    await invitee.getByLabel('Password').fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Sign in', exact: true }).click();
    await invitee.waitForURL((url) => url.pathname === '/');
    const me = await api<{ email: string; role: string }>(invitee, 'GET', '/api/auth/user');
    expect(me.json).toMatchObject({ email, role: 'scribe' });

    const again = await e2e.newPage();
    await again.goto(link);
    await again.getByText('This link has already been used').waitFor();

    // The admin's list shows them active, with a last sign-in.
    await page.locator('#users-search').fill(word);
    await page.getByRole('listitem').filter({ hasText: email }).getByText('Active').waitFor();
  });

  it('assigns a role by email with the spec form, and refuses an empty one with the validation toast', async () => {
    const { page } = e2e;
    await openUsers(page);
    await page.getByRole('button', { name: 'Assign Role' }).click();
    await toastText(page, 'Please enter both email and role').waitFor();
    // Below the top bar, not over the bell and the user menu (issue 29).
    expect(await toastOverTopBar(page)).toBeLessThanOrEqual(0);

    await page.locator('#assign-email').fill(DEMO_EMAILS.nurse2.toUpperCase());
    await page.locator('#assign-role').selectOption('scheduler');
    await page.getByRole('button', { name: 'Assign Role' }).click();
    // The spec's catalogue (section 8): 'Success', 'User role updated successfully', then who and what.
    await toastText(page, 'User role updated successfully').waitFor();
    await page.waitForFunction(async (email) => {
      const res = await fetch(`/api/admin/users?search=${encodeURIComponent(email)}`);
      const list = (await res.json()) as { role: string }[];
      return list[0]?.role === 'scheduler';
    }, DEMO_EMAILS.nurse2);
    const { json } = await api<TAdminUser[]>(page, 'GET', `/api/admin/users?search=${encodeURIComponent(DEMO_EMAILS.nurse2)}`);
    expect(json[0]?.role).toBe('scheduler');
  });

  it("a scheduler's User Management link opens the staff read-only: names, roles, status, nothing to change (issue 29)", async () => {
    const { page } = e2e;
    await signInAs(page, 'scheduler');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'User Management' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    const tab = page.getByRole('tab', { name: 'User Management' });
    await tab.waitFor();
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    const rows = page.getByTestId('user-row');
    await rows.first().waitFor();
    // Every demo account, with its role and whether it is active.
    const nurse = rows.filter({ hasText: 'Nora Bennett' });
    expect(await nurse.locator('[data-role]').getAttribute('data-role')).toBe('nurse');
    expect(await nurse.locator('[data-status]').innerText()).toBe('Active');
    expect(await rows.filter({ hasText: '(you)' }).locator('[data-role]').getAttribute('data-role')).toBe('scheduler');
    expect(await page.getByRole('list', { name: 'Role descriptions' }).isVisible()).toBe(true);
    // Read-only: no invite, role choice, reset link or deactivation, and no emails shown.
    for (const name of ['Invite User', 'Assign Role', 'Reset password', 'Deactivate', 'Reactivate', 'New invite link']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByTestId('users-list').locator('select').count()).toBe(0);
    expect(await page.getByTestId('users-list').innerText()).not.toContain('@');
    // The search finds by name.
    await page.locator('#users-search').fill('Bennett');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // And the server refuses the management calls the admin's tab makes.
    expect((await api(page, 'GET', '/api/admin/users')).status).toBe(403);
    expect((await api(page, 'PUT', '/api/admin/users/role', { email: DEMO_EMAILS.scheduler, role: 'admin' })).status).toBe(403);
    expect((await api<{ role: string }>(page, 'GET', '/api/auth/user')).json.role).toBe('scheduler');
  });

  it('a link opened while signed in asks to log out first, sets nothing, and works once logged out', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    const word = uniqueWord();
    const invite = await api<TInviteResult>(page, 'POST', '/api/admin/users', {
      email: `${word}@clinic.example`,
      firstName: 'Bo',
      lastName: word,
      role: 'nurse',
    });
    expect(invite.status).toBe(201);

    await page.goto(invite.json.link.url);
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    await page.getByText(DEMO_EMAILS.admin).waitFor();
    expect(page.url()).not.toContain('token=');
    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(invite.json.link.url);
    await page.getByText(`${word}@clinic.example`).waitFor();
    await page.getByLabel('New password').waitFor();
  });

  it('fits a 375 px screen and is axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openUsers(page);
    await page.getByRole('listitem').first().waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // A toast spans the narrow screen, under the whole header rather than over it (issue 29).
    await page.getByRole('button', { name: 'Assign Role' }).click();
    await toastText(page, 'Please enter both email and role').waitFor();
    expect(await toastOverTopBar(page)).toBeLessThanOrEqual(0);
  });
});

describe('Admin Panel, API Clients', () => {
  it('creates a client reading as a nurse for two types, shows its secret once; it works once she accepts it, and revoking it stops its token', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    await page.goto('/admin?tab=api-clients');
    await page.getByRole('heading', { name: 'API clients' }).waitFor();
    // The demo clinic's two: one in use, one revoked (server/seed/demo-clinic.ts).
    const demoRow = (name: string) => page.getByTestId('api-client').filter({ hasText: name });
    expect(await demoRow('Riverside Hospital referrals').innerText()).toContain('Reads as Sam Rivera (Scheduler) · Patient, Appointment, Encounter');
    expect(await demoRow('Former patient portal').getByText('Revoked', { exact: true }).isVisible()).toBe(true);
    expect(
      await demoRow('Former patient portal')
        .getByRole('button', { name: /^Revoke/ })
        .count(),
    ).toBe(0);

    await page.getByRole('button', { name: 'New API client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API client' });
    // Nothing named, nobody to read as: the fields say so and nothing is sent.
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await dialog.getByTestId('api-client-name-error').waitFor();
    expect(await dialog.getByTestId('api-client-user-error').innerText()).toBe('Choose a staff account');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByLabel('Name').fill('City Hospital interface');
    await dialog.getByLabel('Reads as').selectOption({ label: 'Nora Bennett (Nurse)' });
    await dialog.getByLabel('Every resource type').uncheck();
    await dialog.getByLabel('Patient', { exact: true }).check();
    await dialog.getByLabel('Observation', { exact: true }).check();
    await dialog.getByRole('button', { name: 'Create client' }).click();
    const secretPanel = dialog.getByTestId('api-client-secret');
    await secretPanel.waitFor();
    const [clientId, secret] = await secretPanel.locator('input[readonly]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByTestId('api-client').filter({ hasText: 'City Hospital interface' });
    expect(await row.innerText()).toContain('Reads as Nora Bennett (Nurse) · Patient, Observation');
    expect(await page.content()).not.toContain(secret);
    // Reading as the nurse is hers to accept (issue 47): until then it takes no token.
    expect(await row.getByTestId('api-client-standing').innerText()).toBe('Waiting for acceptance');
    const credentials = { form: { grant_type: 'client_credentials', client_id: clientId!, client_secret: secret! } };
    expect((await page.request.post('/api/oauth/token', credentials)).status()).toBe(401);

    // The nurse is told, and accepts it on her Security page.
    const nursePage = await e2e.newPage();
    await signInAs(nursePage, 'nurse', { landOn: '/account/security' });
    const mine = nursePage.getByTestId('my-api-client').filter({ hasText: 'City Hospital interface' });
    expect(await mine.innerText()).toContain('may read: Patient, Observation');
    expect(await seriousA11yViolations(nursePage)).toEqual([]);
    await mine.getByRole('button', { name: 'Accept City Hospital interface' }).click();
    await mine.getByText('Active', { exact: true }).waitFor();

    const issued = await page.request.post('/api/oauth/token', credentials);
    expect(issued.status()).toBe(200);
    const bearer = { authorization: `Bearer ${(await issued.json()).access_token}` };
    expect((await page.request.get('/fhir/R4/Patient?_count=1', { headers: bearer })).status()).toBe(200);

    await row.getByRole('button', { name: 'Revoke City Hospital interface' }).click();
    await row.getByRole('button', { name: 'Revoke now' }).click();
    await row.getByText('Revoked', { exact: true }).waitFor();
    expect((await page.request.get('/fhir/R4/Patient?_count=1', { headers: bearer })).status()).toBe(401);
  });

  it('makes a client that signs with its key (SMART Backend Services): no secret is shown, and a signed assertion gets a token', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    await page.goto('/admin?tab=api-clients');
    await page.getByRole('button', { name: 'New API client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API client' });
    await dialog.getByLabel('Name').fill('Registry export');
    await dialog.getByLabel('Reads as').selectOption({ label: 'Alex Morgan (Admin)' });
    await dialog.getByLabel('Proves itself with').selectOption({ label: 'Signed key (private_key_jwt)' });
    const { privateKey, publicKey } = await generateKeyPair('ES384', { extractable: true });
    // The private half pasted by mistake is refused under the field, and nothing is made.
    await dialog.getByLabel('Public keys').fill(JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'reg-1' }] }));
    await dialog.getByRole('button', { name: 'Create client' }).click();
    expect(await dialog.getByTestId('api-client-keys-error').innerText()).toMatch(/private key/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByLabel('Public keys').fill(JSON.stringify({ ...(await exportJWK(publicKey)), kid: 'reg-1' }));
    await dialog.getByRole('button', { name: 'Create client' }).click();
    const panel = dialog.getByTestId('api-client-secret');
    await panel.waitFor();
    const values = await panel.locator('input[readonly]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(values).toHaveLength(1);
    const clientId = values[0]!;
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByTestId('api-client').filter({ hasText: 'Registry export' });
    expect(await row.getByTestId('api-client-auth').innerText()).toBe('Signs with key reg-1');

    const tokenUrl = (await (await page.request.get('/fhir/R4/.well-known/smart-configuration')).json()).token_endpoint as string;
    const assertion = await new SignJWT({ jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'ES384', kid: 'reg-1' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(tokenUrl)
      .setExpirationTime('4m')
      .sign(privateKey);
    const form = {
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    };
    expect((await page.request.post('/api/oauth/token', { form })).status()).toBe(200);
  });

  it('fits 375 px: a name wraps whole, an id may break but a date never does, nothing scrolls sideways (issue 50)', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'admin');
    await page.goto('/admin?tab=api-clients');
    const row = page.getByTestId('api-client').filter({ hasText: 'Riverside Hospital referrals' });
    await row.waitFor();
    const name = row.getByTestId('api-client-name');
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await name.innerText()).toBe('Riverside Hospital referrals');
    const facts = await row
      .getByTestId('api-client-facts')
      .locator('li')
      .evaluateAll((items) =>
        items.map((li) => ({
          text: (li as HTMLElement).innerText,
          lines: Math.round(li.getBoundingClientRect().height / parseFloat(getComputedStyle(li).lineHeight)),
        })),
      );
    for (const fact of facts.slice(1)) expect(fact, fact.text).toMatchObject({ lines: 1 });
    expect(facts[1]!.text).toMatch(/^Created [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
