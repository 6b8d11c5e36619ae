import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TAuditRow } from '#domain/audit';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** From /patients, the first card's 'Access log': the viewer filtered to that patient. */
async function openAccessLogOfFirstPatient(page: Page) {
  await page.goto('/patients');
  const card = page.getByTestId('patient-card').first();
  await card.waitFor();
  const patientId = (await card.getAttribute('data-patient-id'))!;
  const name = (await card.getByRole('heading').textContent())!;
  await card.getByRole('link', { name: `Access log of ${name}`, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/admin' && url.searchParams.get('tab') === 'audit' && url.searchParams.get('patientId') === patientId);
  await page.getByTestId('audit-row').first().waitFor();
  return { patientId, name };
}

describe('Admin Panel, Audit Trail', () => {
  it("opens from a patient's card filtered to that patient, shows only their rows, and verifies the chain", async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    const { patientId, name } = await openAccessLogOfFirstPatient(page);

    await page.getByRole('tab', { name: 'Audit Trail', selected: true }).waitFor();
    expect(await page.getByTestId('patient-summary').textContent()).toContain(name);
    // The /patients visit that just showed this patient is in the trail, as a list that included them.
    const shown = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    const { json: rows } = await api<TAuditRow[]>(page, 'GET', `/api/admin/audit?patientId=${patientId}&limit=200`);
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    expect(shown.length).toBeGreaterThan(0);
    for (const seq of shown) {
      const row = bySeq.get(seq);
      expect(row, `row ${seq} is about the patient`).toBeDefined();
      expect(row!.patientId === patientId || (row!.viaList === true && row!.patientCount! > 0)).toBe(true);
    }
    await page
      .getByText(/List of \d+ patients, including this one/)
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page
      .getByTestId('audit-chain-result')
      .getByText(/^Chain intact: \d+ rows/)
      .waitFor();
    // The signed head, downloaded and checked again from the file: still in the chain.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-head-download').click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-head-\d+\.json$/);
    await page.getByTestId('audit-head-file').setInputFiles((await download.path())!);
    await page
      .getByTestId('audit-saved-head')
      .getByText(/is still in the chain/)
      .waitFor();
    await page.getByTestId('audit-head-file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"seq": 1}') });
    await page
      .getByRole('alert')
      .getByText(/This file is not a saved audit head/)
      .waitFor();
    await page.getByTestId('audit-export').waitFor();
    expect(await page.getByTestId('audit-export').getAttribute('href')).toBe(`/api/admin/audit/export.csv?patientId=${patientId}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // An action filter joins the patient in the address and narrows the rows.
    await page.getByLabel('Action').selectOption('patient.list');
    await page.waitForURL((url) => url.searchParams.get('action') === 'patient.list' && url.searchParams.get('patientId') === patientId);
    await page.getByTestId('audit-row').first().waitFor();
    const actions = await page.getByTestId('audit-table').locator('tbody tr td:nth-child(4)').allTextContents();
    expect(new Set(actions)).toEqual(new Set(['patient.list']));

    await page.getByLabel('From').fill('2001-01-01');
    await page.getByLabel('To').fill('2001-01-02');
    await page.getByText('No audit events match these filters').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('fits 375 px as a card list, axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'admin');
    await openAccessLogOfFirstPatient(page);
    expect(await page.getByTestId('audit-table').count()).toBe(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByText(/^Chain intact/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("a scheduler sees neither the Audit Trail tab nor a card's access log", async () => {
    const { page } = e2e;
    await signInAs(page, 'scheduler');
    await page.goto('/patients');
    await page.getByTestId('patient-card').first().waitFor();
    expect(await page.getByRole('link', { name: /^Access log/ }).count()).toBe(0);
    expect(await page.getByText('Access log').count()).toBe(0);
    await page.goto('/admin?tab=audit');
    await page.getByRole('tablist', { name: 'Admin Panel sections' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Audit Trail' }).count()).toBe(0);
    expect(await page.getByTestId('audit-row').count()).toBe(0);
    expect((await api(page, 'GET', '/api/admin/audit')).status).toBe(403);
  });
});
