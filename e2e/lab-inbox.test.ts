import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDate } from '#domain/clinic-time';
import type { TLabOrderDetail, TLabTest } from '#domain/labs';
import { fieldOf, sendHl7 } from '../tests/helpers/hl7-sender.ts';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { freePort } from './helpers/server.ts';
import { useE2E } from './helpers/suite.ts';

// 'From the lab' (issue 54): a lab's HL7 v2 result that the interface could not file by itself
// waits on /lab-orders?tab=inbox; a nurse reads it as segments and fields, compares the patient
// it names with the record, and files it to the order (or rejects it). The server's MLLP
// listener is turned on for this file on a port chosen here, where the test sends as a lab would.

const MLLP_PORT = await freePort();
const e2e = useE2E({ env: { HL7_MLLP_PORT: String(MLLP_PORT) } });

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/lab-inbox-screens';
mkdirSync(SHOTS, { recursive: true });

const BMP = 'Basic metabolic panel';

/** An ORU^R01 as tests/api/lab-interface.test.ts sends it: one report with a high potassium. */
function oru(o: { controlId: string; patientId: string; first: string; last: string; placer: string; birth: string }) {
  return [
    `MSH|^~\\&|HL7LAB|MAIN|EHR|CLINIC|20261128101500||ORU^R01^ORU_R01|${o.controlId}|P|2.5.1`,
    `PID|1||${o.patientId}^^^CLINIC^MR||${o.last}^${o.first}||${o.birth}|F`,
    `ORC|RE|${o.placer}|F-1`,
    `OBR|1|${o.placer}|F-1|24326-1^Electrolytes^LN|||202611280800|||||||||||||||202611281012|||F`,
    'OBX|1|NM|2823-3^Potassium^LN||5.8|mmol/L|3.5-5.1|H|||F|||202611281010',
    'OBX|2|ST|APP^Appearance^L||Clear||||||F',
  ].join('\r');
}

/** A patient of the test's own, born 1980-05-17, with a BMP ordered for her by the signed-in nurse. */
async function patientWithOrder(page: Page) {
  const last = uniqueWord();
  const first = 'Lab';
  const created = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: first, lastName: last, dateOfBirth: '1980-05-17', sex: 'female' });
  expect(created.status).toBe(201);
  const tests = await api<TLabTest[]>(page, 'GET', '/api/lab-tests');
  const test = tests.json.find((t) => t.name === BMP)!;
  const order = await api<TLabOrderDetail>(page, 'POST', '/api/lab-orders', { patientId: created.json.id, testId: test.id, priority: 'routine' });
  expect(order.status).toBe(201);
  return { patientId: created.json.id, first, last, name: `${first} ${last}`, order: order.json };
}

/** Sends a message as the lab and checks it was held for a person (AE), naming the field that held it. */
async function sendHeld(text: string, field: string) {
  const ack = await sendHl7(MLLP_PORT, text);
  expect(fieldOf(ack, 'MSA', 1)).toBe('AE');
  expect(fieldOf(ack, 'ERR', 2)).toBe(field);
}

const rowOf = (page: Page, name: string) => page.getByTestId('lab-inbox-row').filter({ hasText: `Message says: ${name},` });

/** Neither the page nor the scrolling content area nor an open dialog is wider than the screen. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const main = document.getElementById('main-content');
    const dialog = document.querySelector('[role=dialog]');
    return Math.max(root.scrollWidth - root.clientWidth, main ? main.scrollWidth - main.clientWidth : 0, dialog ? dialog.scrollWidth - dialog.clientWidth : 0);
  });
}

describe('From the lab', () => {
  it('a nurse opens a result whose placer number matched no order, reads its segments, files it to her patient’s order, and sees the results there', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse', { landOn: '/lab-orders' });
    await page.getByRole('tab', { name: 'From the lab' }).click();
    await page.waitForURL((url) => url.search === '?tab=inbox');
    // The demo clinic's own held message (server/seed/demo-lab-messages.ts) is there first.
    await page.getByTestId('lab-inbox-row').first().waitFor();

    const p = await patientWithOrder(page);
    await sendHeld(
      oru({ controlId: `E2E-${uniqueWord()}`, patientId: p.patientId, first: p.first, last: p.last, placer: 'L999999', birth: '19800517' }),
      'OBR^1^2',
    );

    // The queue is read again when the server says it changed: no reload.
    const row = rowOf(page, p.name);
    await row.waitFor();
    expect(await row.getByTestId('lab-inbox-patient').innerText()).toBe(`Message says: ${p.name}, born 1980-05-17`);
    expect(await row.getByTestId('lab-inbox-report').innerText()).toContain('Electrolytes');
    expect(await row.getByTestId('lab-inbox-report').innerText()).toContain('placer no. L999999');
    expect(await row.getByTestId('lab-inbox-problem').innerText()).toContain('No order of the clinic has the placer number L999999');
    expect(await row.getByTestId('lab-inbox-sender').innerText()).toBe('from HL7LAB^MAIN by HL7 interface');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/tab-1280.png`, fullPage: true });

    await row.getByRole('button', { name: /^Open/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Message from HL7LAB^MAIN' });
    await dialog.getByTestId('lab-inbox-segments').waitFor();
    expect(new URL(page.url()).searchParams.get('message')).toBe(await row.getAttribute('data-message-id'));
    const field = (name: string) => dialog.locator(`[data-testid=lab-inbox-field][data-field="${name}"] td`);
    expect(await field('PID-7').innerText()).toBe('19800517');
    expect(await field('OBR-2').innerText()).toBe('L999999');
    expect(await field('OBX-5').first().innerText()).toBe('5.8');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dialog-1280.png` });

    // The patient the message's identifier named comes first; her name and birth date are the message's.
    await dialog.getByRole('button', { name: 'File Results…' }).click();
    const check = dialog.getByTestId('lab-inbox-patient-check');
    await check.waitFor();
    expect(await check.getAttribute('data-mismatch')).toBe('false');
    expect(await dialog.getByTestId('patient-summary').innerText()).toContain(p.name);
    const target = dialog.getByLabel(/^Report 1: Electrolytes/);
    await expect.poll(() => target.locator('option').allInnerTexts()).toContain(`${BMP} · ${p.order.placerNumber} · ${await orderedOn(page, p.order)}`);
    await target.selectOption(p.order.id);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByTestId('lab-inbox-file-form').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/file-form-1280.png` });
    await dialog.getByRole('button', { name: 'File Results', exact: true }).click();
    await toastText(page, 'Results filed').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('message')).toBeNull();
    await row.waitFor({ state: 'detached' });

    // The order has the lab's results, marked as sent by the interface.
    await page.goto(`/lab-orders?tab=all&order=${p.order.id}`);
    const detail = page.getByRole('dialog', { name: BMP });
    const potassium = detail.locator('[data-testid=lab-result][data-name="Potassium"]');
    await potassium.waitFor();
    expect(await potassium.getByTestId('lab-result-value').innerText()).toContain('5.8');
    expect(await potassium.getAttribute('data-flag')).toBe('H');
    expect(await detail.getByTestId('lab-status').innerText()).toBe('Results in');

    // 'All messages' keeps it, filed by her.
    await page.goto('/lab-orders?tab=inbox');
    await page.getByRole('button', { name: 'All messages' }).click();
    const filed = rowOf(page, p.name);
    await filed.waitFor();
    expect(await filed.getAttribute('data-status')).toBe('matched');
    expect(await filed.innerText()).toContain('Filed by Nora Bennett');
  });

  it('at 375 px: a birth date that is not the record’s is marked before filing; the nurse rejects the message with a reason', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'nurse', { landOn: '/lab-orders?tab=inbox' });
    const p = await patientWithOrder(page);
    await sendHeld(
      oru({ controlId: `E2E-${uniqueWord()}`, patientId: p.patientId, first: p.first, last: p.last, placer: p.order.placerNumber, birth: '19800518' }),
      'PID^1^7',
    );

    const row = rowOf(page, p.name);
    await row.waitFor();
    expect(await row.getByTestId('lab-inbox-problem').innerText()).toContain('birth date (PID-7)');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/tab-375.png`, fullPage: true });

    await row.getByRole('button', { name: /^Open/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Message from HL7LAB^MAIN' });
    const birth = dialog.locator('[data-testid=lab-inbox-field][data-field="PID-7"]');
    await birth.waitFor();
    expect(await birth.getAttribute('data-marked')).toBe('true');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/dialog-375.png` });

    await dialog.getByRole('button', { name: 'File Results…' }).click();
    const check = dialog.getByTestId('lab-inbox-patient-check');
    await check.waitFor();
    expect(await check.getAttribute('data-mismatch')).toBe('true');
    expect(await check.locator('[data-field=Born]').getAttribute('data-same')).toBe('false');
    expect(await check.innerText()).toContain('The birth date in the message differs from the record');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await check.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/mismatch-375.png` });

    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Reject…' }).click();
    await dialog.getByRole('button', { name: 'Reject Message' }).click();
    await dialog.getByTestId('reason-error').waitFor();
    await dialog.getByLabel(/^Reason/).fill('Not our patient’s birth date; asked the lab to check');
    await dialog.getByRole('button', { name: 'Reject Message' }).click();
    await toastText(page, 'Message rejected').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    // Nothing was filed to her order.
    const order = await api<TLabOrderDetail>(page, 'GET', `/api/lab-orders/${p.order.id}`);
    expect(order.json.status).toBe('ordered');
  });

  it('shows skeletons while loading, an error with Try again, and its empty state', async () => {
    const { page } = e2e;
    // The first read is held until the skeleton has been seen; then it fails; then the queue is empty.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    await page.route(
      (url) => url.pathname === '/api/lab-inbox',
      async (route) => {
        reads += 1;
        if (reads === 1) {
          await held;
          await route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Database unavailable', code: 'server.error' }),
          });
        } else {
          await route.fulfill({ status: 200, contentType: 'application/json', headers: { 'x-total-count': '0' }, body: '[]' });
        }
      },
    );
    await signInAs(page, 'admin', { landOn: '/lab-orders?tab=inbox' });
    await page.getByTestId('lab-inbox-skeleton').first().waitFor();
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the messages from the lab' });
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Database unavailable');
    await failed.getByRole('button', { name: 'Try again' }).click();
    const empty = page.getByTestId('lab-inbox-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('Nothing waiting from the lab');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/empty-1280.png` });
  });

  it('is not offered to a role without the queue', async () => {
    const { page } = e2e;
    await signInAs(page, 'scribe', { landOn: '/lab-orders?tab=inbox' });
    await page.getByRole('tab', { name: 'Outstanding', selected: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'From the lab' }).count()).toBe(0);
  });
});

/** The day an order was placed, as the order select writes it (in the clinic's zone, through the app's own formatter). */
async function orderedOn(page: Page, order: TLabOrderDetail): Promise<string> {
  const { json } = await api<{ timeZone: string }>(page, 'GET', '/api/clinic');
  return `ordered ${formatDate(order.orderedAt, json.timeZone)}`;
}
