import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TClinicSettings } from '#domain/settings';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openSettings(page: Page) {
  await signInAs(page, 'admin');
  await page.goto('/admin?tab=settings');
  await page.getByRole('form', { name: 'Clinic settings' }).waitFor();
}

describe('Admin Panel, Settings tab', () => {
  it('says plainly who backs the data up: nobody yet without BACKUP_DIR on the embedded engine, the operator on PostgreSQL; passes axe', async () => {
    const { page } = e2e;
    await openSettings(page);
    const card = page.getByTestId('backups');
    if (process.env.TEST_DATABASE_URL) {
      // The app cannot copy a PostgreSQL server's data: it names the tools, and claims no backup state of its own.
      await card.getByTestId('backups-operator').waitFor();
      expect(await card.getByTestId('backups-last-success').count()).toBe(0);
    } else {
      await card.getByTestId('backups-unscheduled').waitFor();
      expect(await card.getByTestId('backups-last-success').textContent()).toBe('None yet');
    }
    // Nothing to write into: no button that could only fail.
    expect(await card.getByRole('button', { name: 'Back up now' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('saves a new clinic name, which the top bar shows at once and after a reload', async () => {
    const { page } = e2e;
    await openSettings(page);
    expect(await page.getByTestId('clinic-name').textContent()).toBe('MediCare EHR');
    expect(await page.getByLabel('Time zone').inputValue()).not.toBe('');
    expect(await page.getByLabel('Idle timeout (minutes)').inputValue()).toBe('30');

    const name = `Clinic ${uniqueWord()}`;
    await page.getByLabel('Clinic name').fill(name);
    await page.getByLabel('Time zone').fill('Europe/Lisbon');
    await page.getByLabel('Idle timeout (minutes)').fill('45');
    await page.getByTestId('settings-save').click();
    await toastText(page, 'Settings saved').waitFor();
    await page.getByTestId('clinic-name').getByText(name, { exact: true }).waitFor();

    const { json } = await api<TClinicSettings>(page, 'GET', '/api/admin/settings');
    expect(json).toMatchObject({ clinicName: name, timeZone: 'Europe/Lisbon', sessionIdleMinutes: 45 });
    await page.reload();
    await page.getByRole('form', { name: 'Clinic settings' }).waitFor();
    expect(await page.getByTestId('clinic-name').textContent()).toBe(name);
    expect(await page.getByLabel('Clinic name').inputValue()).toBe(name);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("saves the schedule the reports measure against: a day's hours, a closed day reopened, a room added and one removed, the late-cancellation window", async () => {
    const { page } = e2e;
    await openSettings(page);
    // The demo clinic lists its four rooms; Saturday is closed until opened.
    expect(await page.getByTestId('openingHours.saturday.closed').isChecked()).toBe(true);
    await page.getByTestId('openingHours.saturday.closed').uncheck();
    await page.getByTestId('openingHours.saturday.opens').fill('09:00');
    await page.getByTestId('openingHours.saturday.closes').fill('12:30');
    await page.getByTestId('openingHours.monday.closes').fill('18:00');
    await page.getByTestId('settings-new-room').fill('Lab');
    await page.getByTestId('settings-add-room').click();
    await page.getByRole('button', { name: /Remove room 103/ }).click();
    await page.getByLabel('Late cancellation (hours)').fill('48');
    await page.getByTestId('settings-save').click();
    await toastText(page, 'Settings saved').waitFor();

    const { json } = await api<TClinicSettings>(page, 'GET', '/api/admin/settings');
    expect(json.openingHours.saturday).toEqual({ opens: '09:00', closes: '12:30' });
    expect(json.openingHours.monday).toEqual({ opens: '08:00', closes: '18:00' });
    expect(json.rooms).toEqual(['100', '101', '102', 'Lab']);
    expect(json.lateCancelHours).toBe(48);

    // A day closing before it opens is refused under that day, and nothing is saved.
    await page.getByTestId('openingHours.tuesday.closes').fill('07:00');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('openingHours.tuesday-error').getByText('Must be after the opening time').waitFor();
    expect((await api<TClinicSettings>(page, 'GET', '/api/admin/settings')).json.openingHours.tuesday).toEqual({ opens: '08:00', closes: '17:00' });
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows each refused value in red under its field, and saves nothing', async () => {
    const { page } = e2e;
    await openSettings(page);
    const before = (await api<TClinicSettings>(page, 'GET', '/api/admin/settings')).json;
    await page.getByLabel('Clinic name').fill('   ');
    await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await page.getByLabel('Idle timeout (minutes)').fill('4');
    await page.getByTestId('settings-save').click();

    expect(await page.getByTestId('clinicName-error').textContent()).toBe('Clinic name is required');
    expect(await page.getByTestId('timeZone-error').textContent()).toBe('Must be an IANA time zone, such as America/New_York');
    expect(await page.getByTestId('sessionIdleMinutes-error').textContent()).toBe('At least 5 minutes');
    expect(await page.getByLabel('Idle timeout (minutes)').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The server refuses the same on its own, naming the field.
    const refused = await api<{ errors: { path: string }[] }>(page, 'PUT', '/api/admin/settings', {
      ...before,
      clinicName: 'X',
      sessionIdleMinutes: 481,
      defaults: undefined,
      updatedAt: undefined,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.map((e) => e.path)).toEqual(['sessionIdleMinutes']);
    expect((await api<TClinicSettings>(page, 'GET', '/api/admin/settings')).json).toEqual(before);
  });

  it('fits 375 px: nothing scrolls sideways, the save button is reachable, axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openSettings(page);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const save = (await page.getByTestId('settings-save').boundingBox())!;
    expect(save.x + save.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    const field = (await page.getByLabel('Time zone').boundingBox())!;
    expect(field.x + field.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('Admin Panel, Prescribers tab (issue 52)', () => {
  it('grants a nurse prescribing rights once her NPI checks out, then revokes them; fits 375 px', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/admin?tab=prescribers' });
    // The demo's physician (the admin) and nurse practitioner (Noah Kim) hold rights already.
    await page.getByTestId('prescriber-list').waitFor();
    expect(await page.getByTestId('prescriber-row').count()).toBe(2);
    await page.getByRole('button', { name: 'Grant Rights' }).click();
    const dialog = page.getByTestId('prescriber-dialog');
    const select = dialog.getByLabel(/Prescriber/);
    const nora = select.locator('option', { hasText: 'Nora Bennett (nurse)' });
    await expect.poll(() => nora.count()).toBe(1);
    const label = (await nora.textContent())!;
    await select.selectOption({ label });
    await dialog.getByLabel(/License number/).fill('NP-204518');
    await dialog.getByLabel(/License state/).fill('ny');
    await dialog.getByLabel(/NPI/).fill('1234567890');
    await dialog.getByRole('button', { name: 'Grant Rights' }).click();
    await dialog.getByText('An NPI is 10 digits with a valid check digit').waitFor();
    await dialog.getByLabel(/NPI/).fill('1234567893');
    await dialog.getByRole('button', { name: 'Grant Rights' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toastText(page, 'Prescribing rights granted').waitFor();
    const row = page.getByTestId('prescriber-row').filter({ hasText: label.replace(' (nurse)', '') });
    await row.getByText('License NY NP-204518 · NPI 1234567893 · No DEA number: no controlled substances').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await row.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByText('Revoked', { exact: true }).waitFor();

    const mobile = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(mobile, 'admin', { landOn: '/admin?tab=prescribers' });
    await mobile.getByTestId('prescriber-list').waitFor();
    expect(await overflow(mobile)).toBe(0);
  });
});
