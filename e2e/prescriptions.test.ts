import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { TPrescription } from '#domain/prescriptions';
import { api } from './helpers/api.ts';
import { signInAs, type TDemoAccount } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The Prescriptions screen (issue 52) against the demo clinic's prescribers (the admin, a
// physician, and the second nurse, a nurse practitioner) and its week of prescriptions
// (server/seed/demo-prescriptions.ts). Tests that write use a patient of their own.

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/prescription-screens';
mkdirSync(SHOTS, { recursive: true });

async function openPrescriptions(page: Page, account: TDemoAccount, path = '/prescriptions'): Promise<void> {
  await signInAs(page, account, { landOn: path });
  await page.getByRole('heading', { name: 'Prescriptions', level: 1 }).waitFor();
}

/** A patient of the test's own, allergic to penicillins (recorded by the signed-in nurse or admin). */
async function allergicPatient(page: Page): Promise<{ id: string; name: string; last: string }> {
  const last = uniqueWord();
  const { status, json } = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: 'Rx', lastName: last, dateOfBirth: '1968-02-11' });
  expect(status).toBe(201);
  const allergy = await api(page, 'POST', `/api/patients/${json.id}/allergies`, {
    substance: { kind: 'class', code: 'penicillins' },
    category: 'medication',
    reactions: ['Hives'],
    criticality: 'high',
  });
  expect(allergy.status).toBe(201);
  return { id: json.id, name: `Rx ${last}`, last };
}

/** Neither the page nor an open dialog is wider than the screen. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const dialog = document.querySelector('[role=dialog]');
    return Math.max(root.scrollWidth - root.clientWidth, dialog ? dialog.scrollWidth - dialog.clientWidth : 0);
  });
}

describe("the issue's journey: a nurse writes, the physician signs over an allergy, prints, and it is stopped from the chart", () => {
  it('checks show as it is written; the prescriber is told, signs with a reason, prints the PDF; the chart discontinues it', async () => {
    const { page } = e2e;
    await openPrescriptions(page, 'nurse');
    const patient = await allergicPatient(page);

    // The nurse writes amoxicillin for the physician to sign: the allergy shows as she writes.
    await page.getByRole('button', { name: 'New Prescription' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Prescription' });
    await dialog.getByLabel(/^Patient/).pressSequentially(patient.last, { delay: 20 });
    await page.getByTestId('patient-option').filter({ hasText: patient.name }).click();
    await dialog.getByTestId('allergy-banner').waitFor();
    await dialog.locator('#rx-drug').pressSequentially('amoxicillin 500', { delay: 20 });
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /Amoxicillin 500 mg capsule/ })
      .click();
    // The formulary's form fills the units and the route.
    expect(await dialog.locator('#rx-doseUnit').inputValue()).toBe('capsule');
    expect(await dialog.locator('#rx-route').inputValue()).toBe('oral');
    await dialog.locator('#rx-frequency').selectOption('tid');
    await dialog.locator('#rx-durationDays').fill('10');
    await expect.poll(() => dialog.getByTestId('rx-sig-sentence').innerText()).toBe('Take 1 capsule by mouth three times a day for 10 days.');
    await dialog.locator('#rx-quantity').fill('30');
    expect(await dialog.locator('#rx-daysSupply').getAttribute('placeholder')).toBe('10 at this sig');
    const alert = dialog.locator('[data-testid=rx-alert][data-check=allergy]');
    await alert.waitFor();
    expect(await alert.getAttribute('data-severity')).toBe('high');
    expect(await alert.innerText()).toContain('penicillins');
    // A nurse without rights names the prescriber.
    await dialog.getByRole('button', { name: 'Save as Draft' }).click();
    expect(await dialog.getByTestId('prescriberId-error').innerText()).toBe('Name the prescriber who is to sign it');
    await dialog.locator('#rx-prescriberId').selectOption({ label: 'Alex Morgan' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-1280.png` });
    await dialog.getByRole('button', { name: 'Save as Draft' }).click();
    await toastText(page, 'Prescription drafted').waitFor();
    const detail = page.getByTestId('rx-detail');
    await detail.getByTestId('rx-status').waitFor();
    expect(await detail.getByTestId('rx-status').innerText()).toBe('Draft');
    // She may edit or discard her draft, never sign it.
    expect(await detail.getByRole('button', { name: 'Sign', exact: true }).count()).toBe(0);
    expect(await detail.getByRole('button', { name: 'Edit Draft' }).count()).toBe(1);

    // The physician, in a browser of her own, finds it in her bell and opens it from there.
    const admin = await e2e.newPage();
    await signInAs(admin, 'admin');
    await admin.getByTestId('notification-bell').click();
    const notice = admin.getByTestId('bell-notification').filter({ hasText: patient.name }).first();
    expect(await notice.innerText()).toContain('Nora Bennett prepared Amoxicillin 500 mg capsule');
    await notice.getByRole('link', { name: /^Open the prescription/ }).click();
    const hers = admin.getByTestId('rx-detail');
    await hers.getByText(`For ${patient.name}`).waitFor();
    await hers.getByRole('button', { name: 'Sign', exact: true }).click();
    const sign = admin.getByTestId('rx-sign-dialog');
    await sign.locator('[data-testid=rx-alert][data-check=allergy]').waitFor();
    // Not without the reason, which the server would refuse too.
    await sign.getByRole('button', { name: 'Sign Over the Alert' }).click();
    expect(await sign.getByTestId('override-0-error').innerText()).toBe('Give the reason you sign over this alert');
    await sign.locator('#rx-override-0').fill('Hives as a child only; tolerated amoxicillin in 2023 under observation');
    await admin.screenshot({ path: `${SHOTS}/sign-1280.png` });
    await sign.getByRole('button', { name: 'Sign Over the Alert' }).click();
    await toastText(admin, 'Prescription signed').waitFor();

    // Printed: the PDF is handed to the browser, and it is active.
    await admin.goto(`/prescriptions?tab=active&patientId=${patient.id}`);
    await admin.getByTestId('rx-row').first().getByRole('button', { name: /^View/ }).click();
    await hers.getByTestId('rx-override').waitFor();
    const [download] = await Promise.all([admin.waitForEvent('download'), hers.getByRole('button', { name: 'Print' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^RX-\d{6}\.pdf$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await expect.poll(() => hers.getByTestId('rx-status').innerText()).toBe('Active');

    // The nurse's list, open all along, shows it signed without a reload.
    await hers.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('tab', { name: 'Recent' }).click();
    const row = page.getByTestId('rx-row').filter({ hasText: patient.name });
    await expect.poll(() => row.getAttribute('data-status')).toBe('active');

    // From her chart's medication list, the physician discontinues it with its reason.
    await admin.goto(`/chart?patientId=${patient.id}`);
    const prescribed = admin.getByTestId('medication-prescription');
    await prescribed.getByRole('button', { name: /^Discontinue/ }).click();
    const end = admin.getByTestId('rx-end-dialog');
    await end.getByRole('button', { name: 'Discontinue' }).click();
    expect(await end.getByTestId('reason-error').innerText()).toBe('Say why it is discontinued');
    await end.getByLabel(/^Reason/).fill('Rash on day 2');
    await end.getByRole('button', { name: 'Discontinue' }).click();
    await toastText(admin, 'Prescription discontinued').waitFor();
    await expect.poll(() => admin.locator('[data-testid=medication-row][data-status=stopped]').count()).toBe(1);
    // The list and the prescriptions under it are read again each on its own: wait for both.
    await expect.poll(() => prescribed.count()).toBe(0);
    await expect.poll(() => row.getAttribute('data-status')).toBe('discontinued');
  });
});

describe('the lists', () => {
  it("a prescriber's tabs: the drafts waiting for her, in force, recent; each row says who, what and how", async () => {
    const { page } = e2e;
    await openPrescriptions(page, 'admin');
    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['To sign', 'Prepared by me', 'Active', 'Recent']);
    // The demo's draft with an aspirin allergy waits for her, its high alert marked.
    const waiting = page.getByTestId('rx-row');
    await waiting.first().waitFor();
    expect(await waiting.first().getAttribute('data-status')).toBe('draft');
    expect(await waiting.first().getByTestId('rx-high-alerts').innerText()).toBe('1 high alert');
    expect(await waiting.first().getByTestId('rx-to-sign-by').innerText()).toBe('To be signed by Alex Morgan');
    await page.getByRole('tab', { name: 'Active' }).click();
    await page.locator('[data-testid=rx-row][data-status=active]').first().waitFor();
    const statuses = await page.getByTestId('rx-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(new Set(statuses)).toEqual(new Set(['signed', 'active']));
    // The controlled substance carries its schedule.
    expect(await page.getByTestId('rx-schedule').allInnerTexts()).toContainEqual(expect.stringMatching(/^C-III\b/));
    await page.screenshot({ path: `${SHOTS}/active-1280.png`, fullPage: true });
  });

  it('a nurse without rights has no To sign tab; a scribe reads and prepares; a scheduler and a supplier are told they have no access', async () => {
    const { page } = e2e;
    await openPrescriptions(page, 'nurse');
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Prepared by me', 'Active', 'Recent']);
    const scribe = await e2e.newPage();
    await openPrescriptions(scribe, 'scribe');
    expect(await scribe.getByRole('button', { name: 'New Prescription' }).count()).toBe(1);
    for (const account of ['scheduler', 'supplier'] as const) {
      const other = await e2e.newPage();
      const asked: string[] = [];
      other.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/prescriptions')) asked.push(request.url());
      });
      await signInAs(other, account, { landOn: '/prescriptions' });
      await other.getByTestId('rx-no-access').waitFor();
      expect(await other.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Prescriptions' }).count()).toBe(0);
      expect(asked).toEqual([]);
    }
  });

  it('shows skeletons while loading, an error with a retry, and says when a patient has none', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await allergicPatient(page);
    let fail = true;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/prescriptions?*', async (route) => {
      await held;
      if (fail)
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Internal server error', code: 'server.internal' }),
        });
      else await route.continue();
    });
    await page.goto('/prescriptions?tab=recent');
    await page.getByTestId('rx-skeleton').first().waitFor();
    release();
    await page.getByText('Could not load the prescriptions').waitFor();
    fail = false;
    await page.getByRole('button', { name: /Try again|Retry/ }).click();
    await page.getByTestId('rx-row').first().waitFor();
    await page.goto(`/prescriptions?tab=recent&patientId=${patient.id}`);
    await page.getByTestId('rx-empty').waitFor();
    expect(await page.getByTestId('rx-empty').innerText()).toContain('No prescriptions yet for this patient');
    expect(await page.getByTestId('patient-filter').innerText()).toBe(`Prescriptions for ${patient.name}`);
  });
});

describe('renewing from the chart', () => {
  it("a prescribed medication's 'Renew' drafts the same course and opens it to check and sign; the old one completes when it is signed", async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    const patient = await allergicPatient(page);
    const { json: products } = await api<{ id: string; name: string }[]>(page, 'GET', '/api/chart/formulary?q=sertraline 50');
    const { status, json: rx } = await api<TPrescription>(page, 'POST', '/api/prescriptions', {
      patientId: patient.id,
      formularyId: products[0]!.id,
      sig: { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'daily' },
      quantity: 30,
      quantityUnit: 'tablet',
    });
    expect(status).toBe(201);
    expect((await api(page, 'POST', `/api/prescriptions/${rx.id}/sign`, {})).status).toBe(200);
    await page.goto(`/chart?patientId=${patient.id}`);
    await page
      .getByTestId('medication-prescription')
      .getByRole('button', { name: /^Renew/ })
      .click();
    await toastText(page, 'Renewal drafted').waitFor();
    const detail = page.getByTestId('rx-detail');
    await detail.getByTestId('rx-status').waitFor();
    expect(await detail.getByTestId('rx-status').innerText()).toBe('Draft');
    expect(await detail.innerText()).toContain('Renews');
    await detail.getByRole('button', { name: 'Sign', exact: true }).click();
    // The course it renews is not a duplicate of itself.
    const sign = page.getByTestId('rx-sign-dialog');
    await sign.locator('[data-testid=rx-alerts-none], [data-testid=rx-alerts]').first().waitFor();
    expect(await sign.locator('[data-testid=rx-alert][data-check=duplicate]').count()).toBe(0);
    await sign.getByRole('button', { name: 'Sign', exact: true }).click();
    await toastText(page, 'Prescription signed').waitFor();
    const old = await api<TPrescription>(page, 'GET', `/api/prescriptions/${rx.id}`);
    expect(old.json).toMatchObject({ status: 'completed', statusReason: expect.stringContaining('Renewed by RX-') });
  });
});

describe('at a visit', () => {
  it("'Prescribe' on a visit under way writes one for her at that visit; the scheduler then sees that the visit has one, and nothing of it", async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    const patient = await allergicPatient(page);
    const { json: clinic } = await api<{ timeZone: string }>(page, 'GET', '/api/appointments/clinic-time');
    const startOfToday = startOfZonedDay(zonedDate(new Date(), clinic.timeZone), clinic.timeZone).getTime();
    const at = new Date(Math.max(Date.now() - 60_000, startOfToday)).toISOString();
    const visit = await api<{ id: string }>(page, 'POST', '/api/appointments', { patientId: patient.id, appointmentDate: at, duration: 30 });
    expect(visit.status, JSON.stringify(visit.json)).toBe(201);
    expect((await api(page, 'PUT', `/api/appointments/${visit.json.id}`, { status: 'checked_in' })).status).toBe(200);

    await page.goto(`/appointments?patientId=${patient.id}`);
    const row = page.locator(`[data-testid=appointment-row][data-appointment-id="${visit.json.id}"]`);
    await row.getByRole('link', { name: /^Prescribe/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New Prescription' });
    await dialog.getByText(patient.name).first().waitFor();
    await dialog.locator('#rx-drug').pressSequentially('azithromycin 250', { delay: 20 });
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /Azithromycin 250 mg tablet/ })
      .click();
    await dialog.locator('#rx-frequency').selectOption('daily');
    await dialog.locator('#rx-durationDays').fill('5');
    await dialog.locator('#rx-quantity').fill('5');
    await dialog.getByRole('button', { name: 'Save as Draft' }).click();
    await toastText(page, 'Prescription drafted').waitFor();
    const id = new URL(page.url()).searchParams.get('rx')!;
    expect((await api<TPrescription>(page, 'GET', `/api/prescriptions/${id}`)).json.appointmentId).toBe(visit.json.id);

    const scheduler = await e2e.newPage();
    await signInAs(scheduler, 'scheduler', { landOn: `/appointments?patientId=${patient.id}` });
    const hers = scheduler.locator(`[data-testid=appointment-row][data-appointment-id="${visit.json.id}"]`).getByTestId('appointment-prescriptions');
    await hers.waitFor();
    expect(await hers.innerText()).toBe('1 prescription');
    expect(await hers.getByRole('link').count()).toBe(0);
  });
});

describe('on a small screen', () => {
  it('the list, a prescription and the form fit 375 px without sideways scrolling', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openPrescriptions(page, 'admin', '/prescriptions?tab=recent');
    await page.getByTestId('rx-row').first().waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/recent-375.png` });
    await page.getByTestId('rx-row').first().getByRole('button', { name: /^View/ }).click();
    await page.getByTestId('rx-detail').getByTestId('rx-status').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/detail-375.png` });
    await page.getByTestId('rx-detail').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'New Prescription' }).click();
    await page.getByRole('dialog', { name: 'New Prescription' }).locator('#rx-drug').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-375.png` });
  });
});
