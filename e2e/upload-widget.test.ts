import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './helpers/api.ts';
import { DEMO_EMAILS, DEMO_PASSWORD } from './helpers/auth.ts';
import { startHarness } from './helpers/harness.ts';
import { toastText } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();
let harness: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  harness = await startHarness('upload', e2e.baseUrl);
});
afterAll(async () => {
  await harness?.close();
});

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);
const png = (bytes: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(bytes - 8)]);

/** The harness page, signed in as a nurse (who attaches files to notes). */
async function openWidget(page: Page): Promise<void> {
  await page.goto(harness.url);
  await page.getByTestId('file-upload').waitFor();
  const status = await page.evaluate(
    async ([email, password]) => {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      return response.status;
    },
    [DEMO_EMAILS.nurse, DEMO_PASSWORD] as const,
  );
  expect(status).toBe(200);
}

/** Slows the page's uploads to `bytesPerSecond`, so progress can be seen. */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.enable');
  await devtools.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** Every progress value the bars show, recorded in the page as they change. */
async function recordProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { seenProgress: number[] }).seenProgress = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) seen.push(Number(bar.getAttribute('aria-valuenow')));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { seenProgress: number[] }).seenProgress);
}

const entries = (page: Page) => page.getByTestId('file-upload-entry');
const input = (page: Page) => page.getByTestId('file-upload-input');

describe('the upload widget', () => {
  it('attaches two files with progress, holds the form until both are confirmed, and the files download', async () => {
    const { page } = e2e;
    await openWidget(page);
    await throttleUploads(page, 1024 * 1024);
    const progress = await recordProgress(page);
    const scan = pdf(1_200_000);
    await input(page).setInputFiles([
      { name: 'scan.pdf', mimeType: 'application/pdf', buffer: scan },
      { name: 'wound.png', mimeType: 'image/png', buffer: png(900_000) },
    ]);
    await expect.poll(() => entries(page).count()).toBe(2);
    await expect.poll(() => page.getByTestId('submit').isDisabled()).toBe(true);
    await expect.poll(() => page.locator('[data-testid="file-upload-entry"][data-status="done"]').count(), { timeout: 20_000 }).toBe(2);
    expect(await page.getByTestId('submit').isDisabled()).toBe(false);
    await toastText(page, '2 file(s) uploaded successfully').waitFor();

    const seen = await progress();
    expect(
      seen.some((value) => value > 0 && value < 100),
      `progress seen: ${seen.join(',')}`,
    ).toBe(true);
    const attachments = JSON.parse(await page.getByTestId('attachments').innerText()) as { name: string; size: number; objectPath: string }[];
    expect(attachments.map((a) => [a.name, a.size])).toEqual([
      ['scan.pdf', scan.length],
      ['wound.png', 900_000],
    ]);
    for (const attachment of attachments) expect(attachment.objectPath).toMatch(/^\/api\/objects\/[0-9a-f-]{36}$/);
    const download = await page.evaluate(async (path) => (await (await fetch(path)).arrayBuffer()).byteLength, attachments[0]!.objectPath);
    expect(download).toBe(scan.length);
    await expect.poll(() => page.getByText('1171.9 KB').count()).toBe(1);
  });

  it("shows the widget's messages for a file too large, a duplicate and one file too many, and keeps none of them", async () => {
    const { page } = e2e;
    await openWidget(page);
    await input(page).setInputFiles([{ name: 'mri.pdf', mimeType: 'application/pdf', buffer: pdf(11 * 1024 * 1024) }]);
    await expect.poll(() => page.getByTestId('file-upload-notice').innerText()).toBe('mri.pdf exceeds maximum allowed size of 10 MB');
    expect(await entries(page).count()).toBe(0);

    // The same file on disk picked twice (a buffer would get a new modification time each time).
    const same = path.join(await mkdtemp(path.join(os.tmpdir(), 'ehr-upload-')), 'same.pdf');
    await writeFile(same, pdf(2000));
    await input(page).setInputFiles([same]);
    await expect.poll(() => entries(page).count()).toBe(1);
    await input(page).setInputFiles([same]);
    await expect.poll(() => page.getByTestId('file-upload-notice').innerText()).toMatch(/^Cannot add the duplicate file 'same.pdf'/);

    await input(page).setInputFiles([1, 2, 3, 4, 5].map((n) => ({ name: `page-${n}.pdf`, mimeType: 'application/pdf', buffer: pdf(1000 + n) })));
    await expect.poll(() => page.getByTestId('file-upload-notice').innerText()).toBe('You can only upload 5 files');
    await expect.poll(() => page.locator('[data-testid="file-upload-entry"][data-status="done"]').count()).toBe(5);
    // Removing a file ends the refusal: its message does not stay (issue 29).
    await page.getByRole('button', { name: 'Remove page-1.pdf' }).click();
    await expect.poll(() => page.getByTestId('file-upload-notice').count()).toBe(0);
  });

  it('retries a failed upload, and cancels one on its way', async () => {
    const { page } = e2e;
    await openWidget(page);
    // The first send is lost on the network; the retry goes through.
    let dropped = 0;
    await page.route('**/api/objects/uploads/**', async (route) => {
      if (dropped === 0) {
        dropped += 1;
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    await input(page).setInputFiles([{ name: 'retry.pdf', mimeType: 'application/pdf', buffer: pdf(5000) }]);
    await expect.poll(() => page.locator('[data-testid="file-upload-entry"][data-status="failed"]').count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'Retry retry.pdf' }).click();
    await expect.poll(() => page.locator('[data-testid="file-upload-entry"][data-status="done"]').count(), { timeout: 20_000 }).toBe(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    await throttleUploads(page, 100 * 1024);
    await input(page).setInputFiles([{ name: 'slow.pdf', mimeType: 'application/pdf', buffer: pdf(3_000_000) }]);
    await page.getByRole('button', { name: 'Cancel slow.pdf' }).click();
    await expect.poll(() => entries(page).count()).toBe(1);
    expect(await page.getByTestId('submit').isDisabled()).toBe(false);
    const attachments = JSON.parse(await page.getByTestId('attachments').innerText()) as { name: string }[];
    expect(attachments.map((a) => a.name)).toEqual(['retry.pdf']);
    const { status } = await api(page, 'POST', '/api/objects/upload');
    expect(status).toBe(200);
  });
});
