import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isAbnormal, isCritical, type TLabFlag } from '#domain/lab-flags';
import type { TLabOrder, TLabOrderDetail, TLabTest } from '#domain/labs';
import type { TNotification } from '#domain/notifications';
import type { TClinicSettings } from '#domain/settings';
import { api } from './helpers/api.ts';
import { signInAs, type TDemoAccount } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The Lab Orders screen (issue 30) against the demo clinic's labs (server/seed/demo-labs.ts): six
// catalogue tests, orders in every state, results 10 and 16 days unreviewed, and an open critical
// potassium. Tests that write use a patient of their own, so none depends on another's leftovers.

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/lab-screens';
mkdirSync(SHOTS, { recursive: true });

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);
const rows = (page: Page) => page.getByTestId('lab-order-row');
const rowWith = (page: Page, text: string) => rows(page).filter({ hasText: text });
const attr = (locator: Locator, name: string) => locator.getAttribute(name);
const BMP = 'Basic metabolic panel';

async function openLabs(page: Page, account: TDemoAccount, path = '/lab-orders'): Promise<void> {
  await signInAs(page, account, { landOn: path });
  await page.getByRole('heading', { name: 'Lab Orders', level: 1 }).waitFor();
}

/** The rows of the open tab, once drawn. */
async function listedRows(page: Page): Promise<Locator> {
  await page.locator('[data-testid=lab-order-row], [data-testid=lab-orders-empty]').first().waitFor();
  return rows(page);
}

/** Neither the page nor the scrolling content area is wider than the screen. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const main = document.getElementById('main-content');
    const dialog = document.querySelector('[role=dialog]');
    return Math.max(root.scrollWidth - root.clientWidth, main ? main.scrollWidth - main.clientWidth : 0, dialog ? dialog.scrollWidth - dialog.clientWidth : 0);
  });
}

/** A patient of the test's own, with the sex and age the catalogue's adult ranges apply to. */
async function newPatient(page: Page, sex: 'female' | 'male' = 'female'): Promise<{ id: string; name: string; last: string }> {
  const last = uniqueWord();
  const { status, json } = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: 'Lab', lastName: last, dateOfBirth: '1970-05-06', sex });
  expect(status).toBe(201);
  return { id: json.id, name: `Lab ${last}`, last };
}

async function catalogueTest(page: Page, name: string): Promise<TLabTest> {
  const { json } = await api<TLabTest[]>(page, 'GET', '/api/lab-tests');
  return json.find((test) => test.name === name)!;
}

/** An order placed through the API by the signed-in page's user (its ordering provider). */
async function placeOrder(page: Page, body: Record<string, unknown>): Promise<TLabOrderDetail> {
  const { status, json } = await api<TLabOrderDetail>(page, 'POST', '/api/lab-orders', { priority: 'routine', ...body });
  expect(status).toBe(201);
  return json;
}

async function listOf(page: Page, view: 'outstanding' | 'review' | 'all'): Promise<TLabOrder[]> {
  return (await api<TLabOrder[]>(page, 'GET', `/api/lab-orders?view=${view}&limit=200`)).json;
}

const rank = (flag: string | null) => (isCritical(flag as TLabFlag) ? 2 : isAbnormal((flag || null) as TLabFlag | null) ? 1 : 0);

describe("the issue's journey: a critical potassium reaches its ordering nurse live", () => {
  it('a nurse orders a BMP; a second nurse enters a critical potassium with the PDF; the first sees the alert without a reload and acknowledges it', async () => {
    const { page } = e2e;
    const word = uniqueWord();
    await openLabs(page, 'nurse');
    const patient = await newPatient(page);

    // The nurse orders the panel for her patient, found with the shared picker.
    await page.getByRole('button', { name: 'New Lab Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Lab Order' });
    await dialog.getByLabel(/^Patient/).pressSequentially(patient.last, { delay: 20 });
    await page.getByTestId('patient-option').filter({ hasText: patient.name }).click();
    const test = dialog.getByLabel(/^Test/);
    await expect.poll(() => test.locator('option').allInnerTexts()).toContain('Basic metabolic panel (LOINC 51990-0)');
    await test.selectOption({ label: 'Basic metabolic panel (LOINC 51990-0)' });
    await dialog.getByLabel('STAT').check();
    const expected = dialog.getByLabel('Results expected on');
    await expected.fill((await expected.getAttribute('min'))!);
    await dialog.getByLabel('Description').fill(`Recheck potassium, ${word}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-order-1280.png` });
    await dialog.getByRole('button', { name: 'Place Order' }).click();
    await toastText(page, 'Lab order created').waitFor();

    // Its detail opens: STAT, ordered, no results, and what an ordering nurse may do with it.
    const detail = page.getByRole('dialog', { name: BMP });
    await detail.getByTestId('lab-no-results').waitFor();
    expect(await attr(detail.getByTestId('lab-priority'), 'data-priority')).toBe('stat');
    expect(await detail.getByTestId('lab-status').innerText()).toBe('Ordered');
    expect(await detail.getByTestId('lab-order-facts').innerText()).toContain(`Recheck potassium, ${word}`);
    for (const name of ['Enter Results', 'Mark Collected', 'Cancel Order']) expect(await detail.getByRole('button', { name }).count(), name).toBe(1);
    expect(await detail.getByRole('button', { name: 'Mark Reviewed' }).count()).toBe(0);
    await detail.getByRole('button', { name: 'Mark Collected' }).click();
    await toastText(page, 'Specimen collected').waitFor();
    await expect.poll(() => detail.getByTestId('lab-status').innerText()).toBe('Collected');
    expect(await detail.getByRole('button', { name: 'Mark Collected' }).count()).toBe(0);
    // (Escape would close the toast first, the top layer.)
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('order')).toBeNull();

    // She waits on her results to review: nothing of this patient yet.
    await page.getByRole('tab', { name: 'Results to review' }).click();
    await listedRows(page);
    expect(await rowWith(page, patient.name).count()).toBe(0);

    // The second nurse, in a browser of her own, enters the results from the outstanding list.
    const other = await e2e.newPage();
    await openLabs(other, 'nurse2');
    const outstanding = rowWith(other, patient.name);
    await outstanding.waitFor();
    expect(await attr(outstanding, 'data-priority')).toBe('stat');
    expect(await outstanding.getByTestId('lab-provider').innerText()).toBe('by Nora Bennett');
    await outstanding.getByRole('button', { name: /^View/ }).click();
    const hers = other.getByRole('dialog', { name: BMP });
    await hers.getByRole('button', { name: 'Enter Results' }).click();
    const form = other.getByRole('dialog', { name: 'Enter Results' });
    const line = (analyte: string) => form.locator(`[data-testid=result-line][data-analyte="${analyte}"]`);
    const flagOf = (analyte: string) => line(analyte).getByTestId('live-flag');
    await line('Potassium').waitFor();
    expect(await form.getByTestId('result-line').count()).toBe(8);
    // The range is the patient's (her sex and age): it shows once her record has been read.
    await line('Potassium').getByText('Ref. 3.5–5.1, critical ≤ 2.5 or ≥ 6.5').waitFor();

    // Each value's flag shows as it is typed, by the same rule as the server.
    const potassium = form.getByLabel('Potassium (mmol/L)');
    await potassium.fill('4.2');
    await expect.poll(() => attr(flagOf('Potassium'), 'data-flag')).toBe('N');
    await potassium.fill('5.8');
    await expect.poll(() => attr(flagOf('Potassium'), 'data-flag')).toBe('H');
    await potassium.fill('6.8');
    await expect.poll(() => attr(flagOf('Potassium'), 'data-flag')).toBe('HH');
    expect(await flagOf('Potassium').textContent()).toContain('HH Critical high');
    const values: [string, string][] = [
      ['Sodium (mmol/L)', '140'],
      ['Chloride (mmol/L)', '101'],
      ['Bicarbonate (mmol/L)', '24'],
      ['Glucose (mg/dL)', '92'],
      ['Urea nitrogen (mg/dL)', '14'],
      ['Creatinine (mg/dL)', '0.8'],
      ['Calcium (mg/dL)', '9.4'],
    ];
    for (const [label, value] of values) await form.getByLabel(label).fill(value);
    await expect.poll(() => attr(flagOf('Creatinine'), 'data-flag')).toBe('N');
    await form.getByLabel('Report text').fill(`Specimen not haemolysed; potassium repeated, ${word}.`);
    await form.getByTestId('file-upload-input').setInputFiles({ name: 'bmp-report.pdf', mimeType: 'application/pdf', buffer: pdf(6_000) });
    await form.locator('[data-testid="file-upload-entry"][data-status="done"]').waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(other)).toEqual([]);
    await other.screenshot({ path: `${SHOTS}/results-form-1280.png`, fullPage: true });
    await form.getByRole('button', { name: 'Save Results' }).click();
    await toastText(other, 'Results saved').waitFor();
    await form.waitFor({ state: 'detached' });

    // Her detail shows the alert, but acknowledging it is the ordering nurse's (or an admin's).
    await hers.getByTestId('critical-alert-panel').waitFor();
    expect(await hers.getByTestId('lab-status').innerText()).toBe('Results in');
    expect(await hers.getByRole('button', { name: 'Acknowledge Critical' }).count()).toBe(0);
    expect(await hers.getByRole('button', { name: 'Mark Reviewed' }).count()).toBe(0);
    expect(await hers.getByRole('button', { name: 'Correct Results' }).count()).toBe(1);

    // The ordering nurse: the toast, and the order at the top of her review list, without a reload.
    await toastText(page, 'Critical lab result').waitFor();
    const mine = rowWith(page, patient.name);
    await mine.waitFor();
    expect(await mine.getByTestId('critical-alert').innerText()).toBe('Critical alert open');
    expect(await attr(mine, 'data-flag')).toBe('HH');
    const flags = await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-flag')));
    const at = await rows(page).evaluateAll((els, id) => els.findIndex((el) => el.getAttribute('data-order-id') === id), (await attr(mine, 'data-order-id'))!);
    expect(flags.slice(0, at).every((flag) => flag === 'HH' || flag === 'LL')).toBe(true);
    const orderId = (await attr(mine, 'data-order-id'))!;
    const active = async () =>
      (await api<TNotification[]>(page, 'GET', '/api/notifications')).json.filter((n) => n.entityId === orderId && n.type === 'lab_critical' && n.isActive)
        .length;
    expect(await active()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/review-critical-1280.png`, fullPage: true });

    // The bell's notice leads to the order itself.
    await page.getByTestId('notification-bell').click();
    const notice = page.getByTestId('bell-notification').filter({ hasText: 'Critical lab result' }).first();
    await notice.getByRole('link', { name: /^Open the lab order/ }).click();
    await page.waitForURL((u) => u.pathname === '/lab-orders' && u.searchParams.get('order') === orderId);
    // Her detail, opened by that link: each value with its unit, the range beside it, the flag in letters and words, the report and its file.
    const result = (analyte: string) => detail.locator(`[data-testid=lab-result][data-name="${analyte}"]`);
    await result('Potassium').waitFor();
    expect(await result('Potassium').getByTestId('lab-result-value').innerText()).toContain('6.8 mmol/L');
    expect(await result('Potassium').getByTestId('lab-result-range').innerText()).toContain('3.5–5.1');
    expect(await attr(result('Potassium'), 'data-flag')).toBe('HH');
    expect(await result('Potassium').innerText()).toContain('Critical high');
    expect(await attr(result('Sodium'), 'data-flag')).toBe('N');
    expect(await detail.getByTestId('lab-report-text').innerText()).toContain(word);
    expect(await detail.getByTestId('lab-attachments').getByRole('link').getAttribute('href')).toMatch(/^\/api\/objects\/[0-9a-f-]{36}$/);
    // Her first potassium: no trend yet, and it says so.
    await detail.getByRole('button', { name: 'Trend of Potassium' }).click();
    expect(await detail.getByTestId('lab-trend-empty').innerText()).toBe('This is the only Potassium result for this patient so far: a trend needs two.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/detail-critical-1280.png` });

    await detail.getByRole('button', { name: 'Acknowledge Critical' }).click();
    await toastText(page, 'Critical result acknowledged').waitFor();
    await detail.getByTestId('critical-alert-panel').waitFor({ state: 'detached' });
    await expect.poll(active).toBe(0);
    await expect.poll(() => mine.getByTestId('critical-alert').count()).toBe(0);

    // Reviewing takes it off her list.
    await detail.getByRole('button', { name: 'Mark Reviewed' }).click();
    await toastText(page, 'Results reviewed').waitFor();
    await expect.poll(() => detail.getByTestId('lab-order-facts').innerText()).toContain('Reviewed');
    await detail.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => rowWith(page, patient.name).count()).toBe(0);
  });
});

describe('the lists', () => {
  it('results to review: critical first, then abnormal, then oldest; each with its age in words, amber from 7 days and red from 14', async () => {
    const { page } = e2e;
    await openLabs(page, 'admin', '/lab-orders?tab=review');
    const listed = await listedRows(page);
    const expected = await listOf(page, 'review');
    expect(expected.length).toBeGreaterThan(3);
    // As the server orders them, every one of them (the admin reviews anyone's).
    await expect.poll(() => listed.evaluateAll((els) => els.map((el) => el.getAttribute('data-order-id')))).toEqual(expected.slice(0, 20).map((o) => o.id));
    const ranks = (await listed.evaluateAll((els) => els.map((el) => el.getAttribute('data-flag')))).map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(ranks[0]).toBe(2);
    const received = expected.map((o) => o.receivedAt!);
    for (let i = 1; i < expected.length; i++)
      if (rank(expected[i]!.worstFlag) === rank(expected[i - 1]!.worstFlag)) expect(received[i]! >= received[i - 1]!).toBe(true);

    // The demo's TSH (10 days) and urinalysis (16 days) are amber and red, said in words.
    const tsh = rows(page)
      .filter({ hasText: 'Thyroid stimulating hormone' })
      .filter({ has: page.locator('[data-age=amber]') });
    expect(await tsh.getByTestId('review-age').innerText()).toBe('Waiting 10 days for review, over 7 days');
    const urinalysis = rows(page)
      .filter({ hasText: 'Urinalysis' })
      .filter({ has: page.locator('[data-age=red]') });
    expect(await urinalysis.getByTestId('review-age').innerText()).toBe('Waiting 16 days for review, over 14 days');
    const background = (locator: Locator) => locator.getByTestId('review-age').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background(tsh)).not.toBe(await background(urinalysis));
    expect(await rows(page).locator('[data-age=fresh]').first().innerText()).toMatch(/^Waiting (\d+ hours?|under an hour) for review$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/review-1280.png`, fullPage: true });
  });

  it('outstanding: most urgent first, then oldest, an overdue order said so; the tab is kept in the address', async () => {
    const { page } = e2e;
    await openLabs(page, 'admin');
    const listed = await listedRows(page);
    const order = { stat: 2, urgent: 1, routine: 0 } as const;
    const priorities = await listed.evaluateAll((els) => els.map((el) => el.getAttribute('data-priority') as 'stat' | 'urgent' | 'routine'));
    expect(priorities[0]).toBe('stat');
    expect(priorities.map((p) => order[p])).toEqual(priorities.map((p) => order[p]).sort((a, b) => b - a));
    // The demo's collected lipid panel was expected yesterday.
    const late = rows(page)
      .filter({ hasText: 'Lipid panel' })
      .filter({ has: page.locator('[data-overdue=true]') });
    expect(await late.getByTestId('lab-expected').innerText()).toMatch(/^Overdue: expected \w{3}, \w{3} \d{1,2}$/);
    expect(await late.getByTestId('lab-status').innerText()).toBe('Collected');
    await page.screenshot({ path: `${SHOTS}/outstanding-1280.png`, fullPage: true });

    await page.getByRole('tab', { name: 'All' }).click();
    await page.waitForURL((url) => url.pathname === '/lab-orders' && url.search === '?tab=all');
    await page.reload();
    await page.getByRole('tab', { name: 'All', selected: true }).waitFor();
    await listedRows(page);
    const all = await listOf(page, 'all');
    expect(await rows(page).first().getAttribute('data-order-id')).toBe(all[0]!.id);
    expect(await rows(page).filter({ hasText: 'Cancelled' }).first().innerText()).toContain('Cancelled: Ordered twice; the other order stands');
  });

  it('shows skeletons while loading, an error with Try again, and each tab its empty state', async () => {
    const { page } = e2e;
    await openLabs(page, 'nurse');
    const patient = await newPatient(page);
    // The first list read is held until the skeleton has been seen; then it fails.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/lab-orders',
      async (route) => {
        await held;
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Database unavailable', code: 'server.error' }) });
      },
    );
    await page.goto(`/lab-orders?patientId=${patient.id}`);
    await page.getByTestId('lab-order-skeleton').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/loading-1280.png` });
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the outstanding lab orders' });
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Database unavailable');
    await page.screenshot({ path: `${SHOTS}/error-1280.png` });
    await page.unrouteAll();
    await failed.getByRole('button', { name: 'Try again' }).click();

    // Her new patient has no orders: each tab says so, for this patient.
    const empty = page.getByTestId('lab-orders-empty');
    await empty.waitFor();
    expect(await page.getByTestId('patient-filter').innerText()).toBe(`Lab orders for ${patient.name}`);
    expect(await empty.innerText()).toContain('No outstanding lab orders for this patient');
    await page.screenshot({ path: `${SHOTS}/empty-1280.png` });
    await page.getByRole('tab', { name: 'Results to review' }).click();
    await expect.poll(() => empty.innerText()).toContain('No results waiting for review for this patient');
    await page.getByRole('tab', { name: 'All' }).click();
    await expect.poll(() => empty.innerText()).toContain('No lab orders for this patient yet');
    expect(await empty.innerText()).toContain("Order a test with 'New Lab Order'.");
    expect(await seriousA11yViolations(page)).toEqual([]);

    // 'New Lab Order' starts with the screen's patient; the way back shows every order.
    await page.getByRole('button', { name: 'New Lab Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Lab Order' });
    expect(await dialog.getByTestId('chosen-patient').innerText()).toContain(patient.name);
    // A test is required, a named one needs its name.
    await dialog.getByRole('button', { name: 'Place Order' }).click();
    expect(await dialog.getByTestId('testId-error').innerText()).toBe('Choose a test, or name one');
    await dialog.getByLabel(/^Test/).selectOption('other');
    await dialog.getByRole('button', { name: 'Place Order' }).click();
    expect(await dialog.getByTestId('orderName-error').innerText()).toBe('Name the test');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Show all lab orders' }).click();
    await page.waitForURL((url) => url.pathname === '/lab-orders' && url.search === '?tab=all');
    await rows(page).first().waitFor();
  });
});

describe('who sees what', () => {
  it('a scribe reads every result and the trend, with no button to change anything', async () => {
    const { page } = e2e;
    await openLabs(page, 'scribe', '/lab-orders?tab=all');
    await listedRows(page);
    expect(await page.getByRole('button', { name: 'New Lab Order' }).count()).toBe(0);
    // The demo patient with two complete blood counts: the latest, and the trend of its haemoglobin.
    const counts = (await listOf(page, 'all')).filter((o) => o.orderName === 'Complete blood count' && o.status === 'received');
    const latest = counts.find((o) => counts.filter((c) => c.patientId === o.patientId).length === 2)!;
    await page.goto(`/lab-orders?tab=all&order=${latest.id}`);
    const detail = page.getByRole('dialog', { name: 'Complete blood count' });
    await detail.getByTestId('lab-results').waitFor();
    expect(await detail.getByTestId('lab-result').count()).toBe(4);
    expect(await detail.getByRole('button', { name: /Acknowledge|Mark|Enter|Correct|Cancel Order/ }).count()).toBe(0);
    expect(await detail.getByTestId('lab-order-actions').count()).toBe(0);
    await detail.getByRole('button', { name: 'Trend of Hemoglobin' }).click();
    const trend = detail.getByTestId('lab-trend');
    await trend.locator('svg[role=img]').waitFor();
    expect(await trend.getByTestId('lab-trend-point').count()).toBe(2);
    expect(await trend.innerText()).toMatch(/2 results from .+: first 13\.1 g\/dL.*latest 14\.6 g\/dL/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/detail-trend-1280.png` });
    // Fewer than two values make no trend, and it says so.
    await detail.getByRole('button', { name: 'Trend of Platelets' }).click();
    expect(await attr(detail.getByRole('button', { name: 'Trend of Platelets' }), 'aria-pressed')).toBe('true');
    await trend.locator('svg[role=img]').waitFor();
    expect(await trend.innerText()).toContain('Platelets over time');

    // The critical potassium of the demo: she sees it and its alert, and cannot acknowledge it.
    const critical = (await listOf(page, 'all')).find((o) => o.criticalAlertId !== null)!;
    await page.goto(`/lab-orders?tab=all&order=${critical.id}`);
    const panel = page.getByRole('dialog', { name: BMP }).getByTestId('critical-alert-panel');
    await panel.waitFor();
    expect(await panel.getByRole('button').count()).toBe(0);
  });

  for (const account of ['supplier', 'scheduler'] as const) {
    it(`a ${account} has no link and gets the no-access card, without calling the API`, async () => {
      const { page } = e2e;
      const calls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/lab-')) calls.push(request.url());
      });
      await signInAs(page, account);
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      expect(await nav.getByRole('link', { name: 'Lab Orders' }).count()).toBe(0);
      await page.goto('/lab-orders');
      const card = page.getByTestId('lab-orders-no-access');
      await card.waitFor();
      expect(await card.innerText()).toContain('You have no access to lab orders');
      expect(await page.getByRole('heading', { name: 'Lab Orders', level: 1 }).count()).toBe(1);
      expect(calls).toEqual([]);
      expect((await api(page, 'GET', '/api/lab-orders')).status).toBe(403);
      if (account === 'supplier') await page.screenshot({ path: `${SHOTS}/no-access-1280.png` });
    });
  }

  it("a patient card leads a nurse to that patient's orders, and back to all", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse', { landOn: '/patients' });
    const patient = await newPatient(page);
    const order = await placeOrder(page, { patientId: patient.id, orderName: `Vitamin D ${patient.last}` });
    await page.getByRole('searchbox', { name: 'Search patients', exact: true }).fill(patient.last);
    const card = page.getByTestId('patient-card').filter({ hasText: patient.name });
    await card.getByRole('link', { name: `Lab orders of ${patient.name}` }).click();
    await page.waitForURL((url) => url.pathname === '/lab-orders' && url.searchParams.get('patientId') === patient.id);
    await rowWith(page, `Vitamin D ${patient.last}`).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await attr(rows(page), 'data-order-id')).toBe(order.id);
    await page.getByRole('link', { name: 'Show all lab orders' }).click();
    await page.waitForURL((url) => url.pathname === '/lab-orders' && url.search === '');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(1);
  });
});

describe('corrections and cancellations', () => {
  it('a correction asks for its reason and keeps the value before it; a cancellation asks why', async () => {
    const { page } = e2e;
    await openLabs(page, 'admin');
    const patient = await newPatient(page, 'male');
    const bmp = await catalogueTest(page, BMP);
    const potassium = bmp.analytes.find((a) => a.name === 'Potassium')!;
    const order = await placeOrder(page, { patientId: patient.id, testId: bmp.id });
    const entered = await api(page, 'PUT', `/api/lab-orders/${order.id}/results`, { results: [{ analyteId: potassium.id, value: 3.1 }] });
    expect(entered.status).toBe(200);

    await page.goto(`/lab-orders?tab=review&order=${order.id}`);
    const detail = page.getByRole('dialog', { name: BMP });
    await detail.getByRole('button', { name: 'Correct Results' }).click();
    const form = page.getByRole('dialog', { name: 'Correct Results' });
    const value = form.getByLabel('Potassium (mmol/L)');
    expect(await value.inputValue()).toBe('3.1');
    await value.fill('4.1');
    await form.getByRole('button', { name: 'Save Correction' }).click();
    expect(await form.getByTestId('correctionReason-error').innerText()).toBe('Say why the results are corrected');
    await form.getByLabel(/^Reason for the correction/).fill('Transcription error');
    await form.getByRole('button', { name: 'Save Correction' }).click();
    await toastText(page, 'Results corrected').waitFor();
    const revision = detail.getByTestId('lab-revision');
    await revision.waitFor();
    expect(await revision.innerText()).toMatch(/Potassium:\s*3\.1 mmol\/L \(L, low\)\s*4\.1 mmol\/L \(N, normal\)/);
    expect(await revision.innerText()).toContain('Reason: Transcription error');

    // Cancelling another order needs a reason.
    const second = await placeOrder(page, { patientId: patient.id, orderName: `Ferritin ${patient.last}` });
    await page.goto(`/lab-orders?order=${second.id}`);
    const secondDetail = page.getByRole('dialog', { name: `Ferritin ${patient.last}` });
    await secondDetail.getByRole('button', { name: 'Cancel Order' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel Order' });
    await cancel.getByRole('button', { name: 'Cancel Order' }).click();
    expect(await cancel.getByTestId('statusReason-error').innerText()).toBe('Say why the order is cancelled');
    await cancel.getByLabel(/^Reason/).fill('Ordered on the wrong patient');
    await cancel.getByRole('button', { name: 'Cancel Order' }).click();
    await toastText(page, 'Lab order cancelled').waitFor();
    await expect.poll(() => secondDetail.getByTestId('lab-status').innerText()).toBe('Cancelled');
    expect(await secondDetail.getByTestId('lab-order-facts').innerText()).toContain('Ordered on the wrong patient');
  });

  it('a test ordered as free text takes named lines', async () => {
    const { page } = e2e;
    await openLabs(page, 'nurse');
    const patient = await newPatient(page);
    const order = await placeOrder(page, { patientId: patient.id, orderName: `Vitamin B12 ${patient.last}` });
    await page.goto(`/lab-orders?order=${order.id}`);
    const detail = page.getByRole('dialog', { name: `Vitamin B12 ${patient.last}` });
    await detail.getByRole('button', { name: 'Enter Results' }).click();
    const form = page.getByRole('dialog', { name: 'Enter Results' });
    await form.getByLabel('Name').fill('Cobalamin');
    await form.getByLabel('Value').fill('180');
    await form.getByLabel('Unit').fill('pg/mL');
    await form.getByLabel('Flag of line 1').selectOption('L');
    await form.getByRole('button', { name: 'Add line' }).click();
    await form.getByLabel('Value').nth(1).fill('borderline');
    await form.getByRole('button', { name: 'Save Results' }).click();
    expect(await form.getByTestId('results.1.name-error').innerText()).toBe('Name what was measured');
    await form.getByRole('button', { name: 'Remove line 2' }).click();
    await form.getByRole('button', { name: 'Save Results' }).click();
    await toastText(page, 'Results saved').waitFor();
    const row = detail.locator('[data-testid=lab-result][data-name="Cobalamin"]');
    await row.waitFor();
    expect(await row.getByTestId('lab-result-value').innerText()).toContain('180 pg/mL');
    expect(await attr(row, 'data-flag')).toBe('L');
    expect(await row.innerText()).toContain('entered');
  });
});

describe('Admin Panel', () => {
  it('Lab Tests: an admin adds a test with its ranges, the refused limits under their inputs, then retires it', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/admin?tab=lab-tests' });
    await page.getByRole('button', { name: `Edit ${BMP}` }).waitFor();
    await page.getByRole('button', { name: 'Add Test' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Lab Test' });
    const name = `Magnesium ${uniqueWord()}`;
    await dialog.getByLabel(/^Test name/).fill(name);
    await dialog.getByLabel('LOINC', { exact: true }).first().fill('19123-9');
    const analyte = dialog.getByTestId('analyte-fields').first();
    await analyte.getByLabel(/^Name/).fill('Magnesium');
    await analyte.getByLabel('Unit (UCUM)').fill('mg/dL');
    const range = analyte.getByTestId('range-fields').first();
    await range.getByLabel('Low', { exact: true }).fill('1.7');
    await range.getByLabel('High', { exact: true }).fill('2.2');
    await range.getByLabel('Critical low').fill('1.8');
    await range.getByLabel('Critical high').fill('4.9');
    await dialog.getByRole('button', { name: 'Add Test' }).click();
    // The domain's rule, at the server's path analytes.0.ranges.0.low, under its input.
    expect(await dialog.getByTestId('analytes.0.ranges.0.low-error').innerText()).toBe('Must not be below the critical low');
    expect(await range.getByLabel('Low', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lab-test-form-1280.png`, fullPage: true });
    await range.getByLabel('Critical low').fill('1.0');
    await dialog.getByRole('button', { name: 'Add Test' }).click();
    await toastText(page, 'Test added').waitFor();
    const row = page.getByTestId('lab-test-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain('1 analyte: Magnesium');
    const saved = (await api<TLabTest[]>(page, 'GET', '/api/lab-tests')).json.find((t) => t.name === name)!;
    expect(saved.analytes[0]!.ranges).toEqual([{ sex: null, ageFrom: null, ageTo: null, low: 1.7, high: 2.2, criticalLow: 1, criticalHigh: 4.9 }]);
    await page.screenshot({ path: `${SHOTS}/lab-tests-1280.png`, fullPage: true });

    // Retired, it is listed as such and no longer offered for new orders.
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Lab Test' });
    await edit.getByLabel(/^Offered for new orders/).uncheck();
    await edit.getByRole('button', { name: 'Save Test' }).click();
    await toastText(page, 'Test saved').waitFor();
    await row.getByText('Retired', { exact: true }).waitFor();
    await page.goto('/lab-orders');
    await page.getByRole('button', { name: 'New Lab Order' }).click();
    const test = page.getByRole('dialog', { name: 'New Lab Order' }).getByLabel(/^Test/);
    await expect.poll(() => test.locator('option').allInnerTexts()).toContain('Basic metabolic panel (LOINC 51990-0)');
    expect((await test.locator('option').allInnerTexts()).some((text) => text.startsWith(name))).toBe(false);
  });

  it('Settings: the critical result escalation minutes, 5 to 1440', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/admin?tab=settings' });
    const field = page.getByLabel('Critical lab result escalation (minutes)');
    expect(await field.inputValue()).toBe('30');
    await field.fill('4');
    await page.getByTestId('settings-save').click();
    expect(await page.getByTestId('criticalEscalationMinutes-error').innerText()).toBe('At least 5 minutes');
    await field.fill('45');
    await page.getByTestId('settings-save').click();
    await toastText(page, 'Settings saved').waitFor();
    expect((await api<TClinicSettings>(page, 'GET', '/api/admin/settings')).json.criticalEscalationMinutes).toBe(45);
  });
});

describe('at 375 px', () => {
  it('nothing scrolls sideways: the lists, an order, the results form, the new order form; axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openLabs(page, 'admin', '/lab-orders?tab=review');
    await listedRows(page);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/review-375.png`, fullPage: true });
    for (const tab of ['Outstanding', 'All']) {
      await page.getByRole('tab', { name: tab }).click();
      await listedRows(page);
      expect(await horizontalOverflow(page), tab).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: `${SHOTS}/all-375.png`, fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);

    const critical = (await listOf(page, 'all')).find((o) => o.criticalAlertId !== null)!;
    await page.goto(`/lab-orders?tab=all&order=${critical.id}`);
    const detail = page.getByRole('dialog', { name: BMP });
    await detail.getByTestId('lab-results').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/detail-375.png` });
    await detail.getByRole('button', { name: 'Correct Results' }).click();
    const form = page.getByRole('dialog', { name: 'Correct Results' });
    await form.getByLabel('Potassium (mmol/L)').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/results-form-375.png` });
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New Lab Order' }).click();
    await page.getByRole('dialog', { name: 'New Lab Order' }).getByLabel(/^Test/).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/new-order-375.png` });
    await page.keyboard.press('Escape');

    await page.goto('/admin?tab=lab-tests');
    await page.getByTestId('lab-test-list').waitFor();
    await page.getByRole('button', { name: `Edit ${BMP}` }).click();
    await page.getByRole('dialog', { name: 'Edit Lab Test' }).getByTestId('analyte-fields').first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lab-test-form-375.png` });
  });
});
