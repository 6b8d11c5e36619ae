import { describe, expect, it } from 'vitest';
import type { TTotpSetup } from '#domain/second-factor';
import { totpCodeAt } from '../server/modules/auth/totp.ts';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

describe('restricted records and emergency access', () => {
  it('an admin restricts a record; a nurse outside its team finds nothing of it, opens it by emergency access, and the admin reviews the use', async () => {
    // The admin restricts the first patient of the list, keeping herself on the care team.
    const admin = e2e.page;
    await signInAs(admin, 'admin', { landOn: '/patients' });
    const card = admin.getByTestId('patient-card').first();
    await card.waitFor();
    const patientId = (await card.getAttribute('data-patient-id'))!;
    const name = (await card.getByRole('heading').textContent())!;
    await card.getByRole('button', { name: /^Restrict/ }).click();
    const dialog = admin.getByTestId('restriction-dialog');
    await dialog.getByRole('group', { name: 'Care team' }).waitFor();
    expect(await dialog.getByRole('checkbox', { name: /\(you\)/ }).isChecked()).toBe(true);
    // Everyone who reads patient records may be on it: a scheduler too, not only nurses and scribes (issue 50).
    await dialog.getByRole('group', { name: 'Care team' }).getByText('Scheduler').first().waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restrict', exact: true }).click();
    await admin.locator(`[data-patient-id="${patientId}"]`).getByTestId('restricted-badge').waitFor();

    // The admin keeps the emergency-access queue open: nothing waits for review yet.
    await admin.goto('/admin?tab=emergency-access');
    await admin.getByTestId('glass-empty').getByText('Nothing waiting for review').waitFor();

    // A nurse finds nothing of her. Emergency access asks for a second factor: without one, she is
    // told so before she fills anything in (issue 50); she sets one up, then finds nothing still.
    const nurse = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(nurse, 'nurse');
    await nurse.goto(`/appointments?patientId=${patientId}`);
    await nurse.getByTestId('restricted-record').getByRole('button', { name: 'Emergency access' }).click();
    const none = nurse.getByTestId('emergency-access-no-factor');
    await none.getByRole('link', { name: 'Set up a second factor' }).waitFor();
    expect(await nurse.getByTestId('emergency-access-dialog').getByLabel('Justification').count()).toBe(0);
    await none.getByRole('button', { name: 'Close' }).click();
    const setup = (await api<TTotpSetup>(nurse, 'POST', '/api/auth/factors/totp', {})).json;
    await api(nurse, 'POST', `/api/auth/factors/totp/${setup.factorId}/confirm`, { code: totpCodeAt(setup.secret, new Date()) });
    await nurse.goto('/patients');
    await nurse.getByTestId('patient-card').first().waitFor();
    expect(await nurse.locator(`[data-patient-id="${patientId}"]`).count()).toBe(0);
    expect(await nurse.getByText(name).count()).toBe(0);

    await nurse.goto(`/appointments?patientId=${patientId}`);
    const panel = nurse.getByTestId('restricted-record');
    await panel.getByText('Restricted patient').waitFor();
    expect(await seriousA11yViolations(nurse)).toEqual([]);
    await panel.getByRole('button', { name: 'Emergency access' }).click();
    const glass = nurse.getByTestId('emergency-access-dialog');
    await glass.getByRole('button', { name: 'Open the record' }).click();
    await glass.locator('#glass-reason-error').getByText('Choose a reason').waitFor();
    await glass.getByLabel('Reason').selectOption('emergency_care');
    await glass.getByLabel('Justification').fill('Collapsed in the waiting room; the care team is not on site');
    await glass.getByLabel('For').selectOption('30');
    await glass.getByLabel('6-digit code from your app').fill(totpCodeAt(setup.secret, new Date(Date.now() + 30_000)));
    expect(await seriousA11yViolations(nurse)).toEqual([]);
    await glass.getByRole('button', { name: 'Open the record' }).click();
    await nurse.getByTestId('emergency-access-banner').waitFor();
    await nurse.getByTestId('patient-filter').getByText(name).waitFor();
    // Her visits are all there, named, as her care team sees them (issue 50: not 'No appointments').
    await nurse.getByTestId('appointment-row').first().waitFor();
    expect(await nurse.getByText('No appointments for this patient').count()).toBe(0);

    // The admin was told, and her open queue shows it without a reload (issue 50); while the
    // access runs, its review waits (issue 47).
    const grant = admin.getByTestId('glass-grant').first();
    await grant.getByText(/Emergency care/).waitFor();
    expect(await grant.textContent()).not.toContain(name);
    expect(await grant.getByTestId('glass-hold').innerText()).toBe('Still running: review it once it has ended.');
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // The nurse ends it when she has what she needed: the record closes to her again.
    await nurse.getByRole('button', { name: 'End access now' }).click();
    await nurse.getByTestId('restricted-record').getByText('Restricted patient').waitFor();
    expect(await nurse.getByText(name).count()).toBe(0);

    // Now the admin reviews the use.
    await admin.reload();
    await grant.getByLabel('Disposition').selectOption('appropriate');
    await grant.getByRole('button', { name: 'Close review' }).click();
    await admin.getByTestId('glass-empty').getByText('Nothing waiting for review').waitFor();
    const { json: alerts } = await api<{ type: string; title: string }[]>(admin, 'GET', '/api/notifications');
    expect(alerts.some((a) => a.type === 'break_glass')).toBe(true);
  });
});
