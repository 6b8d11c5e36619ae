import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { formatReportValue } from '#domain/report-format';
import type { TReport } from '#domain/reports';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

/** What the screen shows, cell by cell and metric by metric, once the report in view is the one asked for. */
async function screenFigures(page: Page) {
  const section = page.locator('[data-testid="report"][data-state="ready"]');
  await section.waitFor();
  const cells = await page
    .locator('[data-testid^="report-cell-"]')
    .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-testid')!.replace('report-cell-', ''), (n.textContent ?? '').trim()] as const));
  const metrics = await page
    .locator('[data-testid^="report-metric-"]')
    .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-testid')!.replace('report-metric-', ''), (n.textContent ?? '').trim()] as const));
  return { cells: Object.fromEntries(cells), metrics: Object.fromEntries(metrics) };
}

/** A download link's file, fetched with the page's session, as the browser would save it. */
async function download(page: Page, testId: string) {
  const href = await page.getByTestId(testId).getAttribute('href');
  const res = await page.request.get(new URL(href!, page.url()).toString());
  expect(res.status()).toBe(200);
  return { href: href!, body: await res.body() };
}

const parseCsv = (text: string) =>
  text
    .trim()
    .split('\r\n')
    .map((line) => [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!)));

/**
 * The report in view, its CSV and its PDF: the same figures, cell by cell and metric by metric,
 * as the JSON the download links name (the screen's own query).
 */
async function expectSameFigures(page: Page): Promise<TReport> {
  const shown = await screenFigures(page);
  const csv = await download(page, 'report-download-csv');
  const pdf = await download(page, 'report-download-pdf');
  const json = (await (await page.request.get(new URL(csv.href.replace('/export.csv', ''), page.url()).toString())).json()) as TReport;
  expect(json.rows.length).toBeGreaterThan(0);

  const [header, ...rows] = parseCsv(csv.body.toString('utf8'));
  expect(header).toEqual(json.columns.map((c) => c.label));
  expect(rows).toHaveLength(json.rows.length);
  const text = (await extractText(await getDocumentProxy(new Uint8Array(pdf.body)), { mergePages: true })).text.replace(/\s+/g, ' ');
  json.rows.forEach((row, i) => {
    const written = json.columns.map((c) => formatReportValue(row[c.key] ?? null, c.kind));
    // Screen: each cell as written; CSV: the number itself; PDF: the row's cells in order.
    json.columns.forEach((c, k) => {
      expect(shown.cells[`${i}-${c.key}`], `${json.id}: ${c.key} of row ${i}`).toBe(written[k]);
      expect(rows[i]![k], `${json.id}: CSV ${c.key} of row ${i}`).toBe(row[c.key] === null ? '' : String(row[c.key]));
    });
    expect(text).toContain(written.join(' '));
  });
  for (const m of json.metrics) {
    expect(shown.metrics[m.key], `${json.id}: ${m.key}`).toBe(formatReportValue(m.value, m.kind));
    expect(text).toContain(`${m.label}: ${formatReportValue(m.value, m.kind)}`);
  }
  // Each figure's definition is on the screen beside the figures.
  for (const c of json.columns.filter((col) => col.definition)) await page.getByTestId('report-definitions').getByText(c.definition!).first().waitFor();
  return json;
}

describe('Reports', () => {
  it("an admin reads the demo clinic's reports: the screen, the CSV and the PDF give the same figures, regrouped too", async () => {
    const page = e2e.page;
    await signInAs(page, 'admin');
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL(/\/reports/);

    const byWeek = await expectSameFigures(page);
    expect(byWeek.id).toBe('no-shows');
    // The demo's month of visits: some completed, some missed.
    expect(byWeek.rows.some((row) => typeof row.completed === 'number' && row.completed > 0)).toBe(true);
    await page.locator('#report-group-by').selectOption('type');
    await page.waitForURL(/groupBy=type/);
    expect((await expectSameFigures(page)).query.groupBy).toBe('type');
    // 'Provider' is who booked the visit here: schedulers and admins only, and it says so (issue 50).
    const roles = async () => {
      await page.locator('#report-provider option[value]:not([value=""])').first().waitFor({ state: 'attached' });
      return new Set((await page.locator('#report-provider option:not([value=""])').allInnerTexts()).map((label) => /\((\w+)\)$/.exec(label)?.[1]));
    };
    expect([...(await roles())].sort()).toEqual(['admin', 'scheduler']);
    expect(await page.getByTestId('provider-help').innerText()).toBe('Who booked the visit: schedulers and admins.');

    for (const id of ['schedule-use', 'staff-activity', 'note-turnaround', 'lab-turnaround', 'supply'] as const) {
      await page.getByTestId(`report-link-${id}`).click();
      await page.locator(`[data-testid="report"][data-report-id="${id}"]`).waitFor();
      expect((await expectSameFigures(page)).id).toBe(id);
      // The lab's ordering provider: nurses and admins, never a supplier or a scribe.
      if (id === 'lab-turnaround') expect([...(await roles())].sort()).toEqual(['admin', 'nurse']);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('every report opens and fits 375 px, axe-clean; a scheduler may read them, a nurse is told she may not', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'scheduler', { landOn: '/reports' });
    for (const id of ['no-shows', 'schedule-use', 'staff-activity', 'note-turnaround', 'lab-turnaround', 'supply']) {
      await page.goto(`/reports?report=${id}`);
      const section = page.locator(`[data-testid="report"][data-report-id="${id}"][data-state="ready"]`);
      await section.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), id).toBe(true);
      expect(await seriousA11yViolations(page), id).toEqual([]);
    }
    const nurse = await e2e.newPage();
    await signInAs(nurse, 'nurse', { landOn: '/reports' });
    await nurse.getByTestId('reports-no-access').waitFor();
  });
});
