import { mkdirSync } from 'node:fs';
import net from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLabOrderDetail, TLabTest } from '#domain/labs';
import { framed } from '../tests/helpers/hl7-sender.ts';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

// Admin Panel → Lab Interface (issue 54, orders out): an admin points the clinic at a reference
// lab (a fake MLLP server this file starts, acknowledging every message), codes the demo's basic
// metabolic panel, and sends a test message; an order of the panel then leaves by itself, and
// the order says the lab acknowledged it.

const e2e = useE2E();

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/lab-interface-shots';
mkdirSync(SHOTS, { recursive: true });

const BMP = 'Basic metabolic panel';

/** The lab: answers each framed message with AA for its MSH-10, and keeps what it got. */
const received: string[] = [];
const lab = net.createServer((socket) => {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let end = buffer.indexOf('\x1c\r'); end >= 0; end = buffer.indexOf('\x1c\r')) {
      const text = buffer.subarray(1, end).toString('utf8');
      buffer = buffer.subarray(end + 2);
      received.push(text);
      const controlId = text.split('\r', 1)[0]!.split('|')[9];
      socket.write(framed(`MSH|^~\\&|LAB|L|X|Y|20261128||ACK^O01|A1|P|2.5.1\rMSA|AA|${controlId}`));
    }
  });
});
beforeAll(() => new Promise<void>((resolve) => lab.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => lab.close(() => resolve())));

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openTab(page: Page) {
  await signInAs(page, 'admin', { landOn: '/admin?tab=lab-interface' });
  await page.getByRole('heading', { name: 'Lab interface' }).waitFor();
}

describe('Admin Panel, Lab Interface', () => {
  it('adds a lab with a code for the BMP, sends a test message it acknowledges, and a BMP order then goes to it by itself, and so does its cancellation', async () => {
    const { page } = e2e;
    await openTab(page);
    await page.getByTestId('lab-connections-empty').waitFor();
    await page.getByTestId('lab-sends-empty').waitFor();

    await page.getByRole('button', { name: 'Add lab' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add lab' });
    const name = `Northwind ${uniqueWord()}`;
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1');
    await dialog.getByRole('spinbutton', { name: 'Port' }).fill(String((lab.address() as net.AddressInfo).port));
    await dialog.getByRole('textbox', { name: 'Receiving application' }).fill('NWLAB');
    await dialog.getByRole('button', { name: 'Add test code' }).click();
    await dialog.getByRole('combobox', { name: 'Test' }).selectOption({ label: BMP });
    await dialog.getByRole('textbox', { name: "Lab's code" }).fill('NW-BMP');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lab-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Add lab' }).click();
    await toastText(page, 'Lab added').waitFor();

    const row = page.getByTestId('lab-connection').filter({ hasText: name });
    expect(await row.getByTestId('lab-connection-coded').innerText()).toBe('1 test coded');
    await row.getByRole('button', { name: `Send test message to ${name}` }).click();
    const answer = row.getByTestId('lab-test-answer');
    await answer.waitFor();
    expect(await answer.getAttribute('data-ok')).toBe('true');
    expect(await answer.innerText()).toContain(`${name} acknowledged the test message (AA)`);
    // A test (MSH-11 T) of the panel under the lab's code, to the application it named.
    const msh = received.at(-1)!.split('\r', 1)[0]!.split('|');
    expect([msh[4], msh[10]]).toEqual(['NWLAB', 'T']);
    expect(received.at(-1)).toContain('NW-BMP');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lab-interface-1280.png`, fullPage: true });

    // A BMP ordered now leaves by itself; the open order shows the lab's acknowledgement when it comes (live).
    const patient = await api<{ id: string }>(page, 'POST', '/api/patients', {
      firstName: 'Lab',
      lastName: uniqueWord(),
      dateOfBirth: '1970-05-06',
      sex: 'female',
    });
    const tests = await api<TLabTest[]>(page, 'GET', '/api/lab-tests');
    const placed = await api<TLabOrderDetail>(page, 'POST', '/api/lab-orders', {
      patientId: patient.json.id,
      testId: tests.json.find((test) => test.name === BMP)!.id,
      priority: 'routine',
    });
    expect(placed.status).toBe(201);
    await page.goto(`/lab-orders?tab=all&order=${placed.json.id}`);
    const facts = page.getByTestId('lab-order-detail').getByTestId('lab-order-facts');
    await facts.getByText(new RegExp(`^${name}: acknowledged `)).waitFor({ timeout: 30_000 });
    expect(received.some((text) => text.includes(`|${placed.json.placerNumber}|`))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/lab-order-sent-1280.png` });

    // Cancelled now, the lab is told (ORC-1 CA), and the open order shows the lab's acknowledgement of that (live).
    expect((await api(page, 'PUT', `/api/lab-orders/${placed.json.id}`, { status: 'cancelled', statusReason: 'Ordered twice' })).status).toBe(200);
    await facts.getByText('Cancellation to lab').waitFor({ timeout: 30_000 });
    await facts.getByText(new RegExp(`^${name}: acknowledged `)).waitFor({ timeout: 30_000 });
    expect(received.some((text) => text.includes(`\rORC|CA|${placed.json.placerNumber}|`))).toBe(true);

    // On a phone: nothing wider than the screen.
    const mobile = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openTab(mobile);
    await mobile.getByTestId('lab-connection').filter({ hasText: name }).waitFor();
    expect(await overflow(mobile)).toBeLessThanOrEqual(0);
    await mobile.screenshot({ path: `${SHOTS}/lab-interface-375.png` });
    await mobile.getByRole('button', { name: `Edit ${name}` }).click();
    await mobile
      .getByRole('dialog', { name: `Edit ${name}` })
      .getByTestId('lab-code-row')
      .waitFor();
    expect(await overflow(mobile)).toBeLessThanOrEqual(0);
    await mobile.screenshot({ path: `${SHOTS}/lab-dialog-375.png` });
  });
});
