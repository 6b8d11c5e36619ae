import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from './helpers/api.ts';
import { signInAs, type TDemoAccount } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The demo clinic seeds five notes, one per status (server/seed/demo-clinic.ts). Tests that need
// their own write them with a unique word in the text, or use a patient of their own, so no test
// depends on another's leftovers.

interface TApiNote {
  id: string;
  patientId: string;
  status: string;
  content: string;
  updatedAt: string;
}

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/notes-screens';

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);

const cards = (page: Page) => page.getByTestId('note-card');
const cardWith = (page: Page, text: string) => cards(page).filter({ hasText: text });
const statusOf = (card: Locator) => card.getByTestId('note-status').getAttribute('data-status');

async function openNotes(page: Page, account: TDemoAccount, path = '/notes'): Promise<void> {
  await signInAs(page, account, { landOn: path });
  await page.getByRole('heading', { name: 'Patient Notes', level: 1 }).waitFor();
}

/** Neither the page nor the scrolling content area is wider than the screen. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const main = document.getElementById('main-content');
    return Math.max(root.scrollWidth - root.clientWidth, main ? main.scrollWidth - main.clientWidth : 0);
  });
}

/** A patient of the test's own, written through the API by the signed-in nurse or admin. */
async function newPatient(page: Page): Promise<{ id: string; name: string }> {
  const word = uniqueWord();
  const { status, json } = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: 'Note', lastName: word, dateOfBirth: '1990-05-06' });
  expect(status).toBe(201);
  return { id: json.id, name: `Note ${word}` };
}

/** The lines of an empty state. */
const emptyText = (empty: Locator) => empty.locator('p').allInnerTexts();

async function chooseType(dialog: Locator, type: string): Promise<void> {
  await dialog.getByLabel('Note type').selectOption(type);
}

describe('a note from draft to amendment', () => {
  it('a nurse drafts with an attachment and submits; the scribe reviews; the admin finalizes and amends; the history keeps the original', async () => {
    const { page } = e2e;
    const word = uniqueWord();
    const original = `Blood pressure 128/82, ${word}. Patient comfortable.`;
    const amended = `Blood pressure 138/82, ${word}. Patient comfortable.`;

    // The nurse: a new note for a demo patient, found by searching, with one PDF.
    await openNotes(page, 'nurse');
    await page.getByRole('button', { name: 'Create New Note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Note' });
    await dialog.getByText('Supports: JPG, PNG, PDF, DOC (Max 10MB each)', { exact: true }).waitFor();
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/patients' && url.searchParams.has('search')) searches.push(url.searchParams.get('search')!);
    });
    const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('search') === 'Olivia');
    await dialog.getByLabel(/^Patient/).pressSequentially('Olivia', { delay: 20 });
    await answered;
    // Asked of the server once typing paused, not once per key; each option names the id's last four.
    expect(searches).toEqual(['Olivia']);
    const options = page.getByTestId('patient-option');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringMatching(/^Olivia Hart #[0-9a-f]{4}$/)]);
    await options.first().click();
    const summary = dialog.getByTestId('patient-summary');
    expect(await summary.innerText()).toContain('Born Mar 12, 1984');
    await chooseType(dialog, 'Nurse Assessment');
    await dialog.getByLabel(/^Content/).fill(original);
    await page.getByTestId('file-upload-input').setInputFiles({ name: 'vitals.pdf', mimeType: 'application/pdf', buffer: pdf(4_000) });
    await dialog.locator('[data-testid="file-upload-entry"][data-status="done"]').waitFor({ timeout: 20_000 });
    expect(await dialog.getByTestId('attachment-count').innerText()).toBe('1 of 5');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    await toastText(page, 'Note created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const mine = cardWith(page, word);
    await mine.waitFor();
    expect(await statusOf(mine)).toBe('draft');
    expect(await mine.getByTestId('note-patient').innerText()).toBe('Olivia Hart');
    expect(await mine.getByTestId('note-type').innerText()).toBe('Nurse Assessment');
    expect(await mine.getByTestId('note-author').innerText()).toBe('by Nora Bennett');
    const file = mine.getByRole('link', { name: /vitals\.pdf/ });
    expect(await file.getAttribute('target')).toBe('_blank');
    expect(await file.getAttribute('href')).toMatch(/^\/api\/objects\/[0-9a-f-]{36}$/);
    expect(await file.innerText()).toContain('3.9 KB');
    // Her own draft: Edit and Submit to Scribe; no review or finalize buttons.
    expect(await mine.getByRole('button', { name: /^Edit/ }).count()).toBe(1);
    for (const name of [/^Mark as Reviewed/, /^Finalize/, /^Amend/]) expect(await mine.getByRole('button', { name }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/list-1280.png`, fullPage: true });

    // Editing shows the attached file, removable, within the five.
    await mine.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Note' });
    await edit
      .getByTestId('kept-attachments')
      .getByRole('link', { name: /vitals\.pdf/ })
      .waitFor();
    expect(await edit.getByTestId('attachment-count').innerText()).toBe('1 of 5');
    expect(await edit.getByRole('button', { name: 'Remove vitals.pdf' }).count()).toBe(1);
    expect(await edit.getByLabel(/^Content/).inputValue()).toBe(original);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });

    // The scribe, in a browser of her own, already on Pending Review: the note arrives there live.
    const scribe = await e2e.newPage();
    await openNotes(scribe, 'scribe', '/notes?tab=pending');
    await cards(scribe).first().waitFor();
    expect(await cardWith(scribe, word).count()).toBe(0);

    await mine.getByRole('button', { name: /^Submit to Scribe/ }).click();
    await toastText(page, 'Note updated successfully').waitFor();
    await expect.poll(() => statusOf(mine)).toBe('submitted_to_scribe');
    expect(await mine.getByRole('button', { name: /^Edit/ }).count()).toBe(0);

    // Then Mark as Reviewed.
    const pending = cardWith(scribe, word);
    await pending.waitFor();
    expect(await pending.getByRole('button', { name: /^Edit & Review/ }).count()).toBe(1);
    await pending.getByRole('button', { name: /^Mark as Reviewed/ }).click();
    await toastText(scribe, 'Note updated successfully').waitFor();
    await expect.poll(() => cardWith(scribe, word).count()).toBe(0);
    await scribe.getByRole('tab', { name: 'Reviewed' }).click();
    await expect.poll(() => statusOf(cardWith(scribe, word))).toBe('reviewed_by_scribe');

    // The admin: Finalize on the Reviewed tab, then Amend with a reason.
    const admin = await e2e.newPage();
    await openNotes(admin, 'admin', '/notes?tab=reviewed');
    const reviewed = cardWith(admin, word);
    await reviewed.waitFor();
    expect(await reviewed.innerText()).toContain('Reviewed by Sara Lopez');
    await reviewed.getByRole('button', { name: /^Finalize/ }).click();
    await toastText(admin, 'Note updated successfully').waitFor();
    await admin.getByRole('tab', { name: 'My Notes' }).click();
    const final = cardWith(admin, word);
    await expect.poll(() => statusOf(final)).toBe('finalized');
    expect(await final.getByRole('button', { name: /^Edit/ }).count()).toBe(0);

    await final.getByRole('button', { name: /^Amend/ }).click();
    const amend = admin.getByRole('dialog', { name: 'Amend Note' });
    await amend.getByLabel(/^Content/).fill(amended);
    // A reason is required.
    await amend.getByRole('button', { name: 'Save Amendment' }).click();
    expect(await amend.getByTestId('amend-reason-error').innerText()).toBe('A reason is required');
    await amend.getByLabel('Reason for the amendment').fill('Systolic value mistyped');
    await amend.getByRole('button', { name: 'Save Amendment' }).click();
    await toastText(admin, 'Note updated successfully').waitFor();
    await expect.poll(() => final.getByTestId('note-content').innerText()).toBe(amended);
    expect(await statusOf(final)).toBe('finalized');
    await final.getByTestId('note-amended').waitFor();

    // The history: every step in order, and the finalized text still readable beside the amendment.
    await final.getByRole('button', { name: /^History/ }).click();
    const history = admin.getByRole('dialog', { name: 'Note History' });
    const entries = history.getByTestId('history-entry');
    await entries.first().waitFor();
    expect(await entries.evaluateAll((els) => els.map((el) => el.getAttribute('data-action')))).toEqual(['created', 'moved', 'moved', 'moved', 'amended']);
    expect(await entries.nth(1).getByTestId('history-move').innerText()).toMatch(/Draft\s*Submitted/);
    expect(await entries.nth(2).innerText()).toContain('by Sara Lopez');
    const amendment = entries.nth(4);
    expect(await amendment.getByTestId('history-reason').innerText()).toBe('Reason: Systolic value mistyped');
    expect(await amendment.getByTestId('history-content-before').innerText()).toBe(original);
    expect(await amendment.getByTestId('history-content-after').innerText()).toBe(amended);
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await admin.screenshot({ path: `${SHOTS}/history-1280.png` });

    // What the screen showed is what the server holds.
    const { json } = await api<TApiNote[]>(admin, 'GET', '/api/notes?status=finalized&limit=200');
    expect(json.find((n) => n.content === amended)).toBeDefined();
  });

  it('says why a save failed when someone else changed the note first, and reloads it', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    const created = await api<TApiNote>(page, 'POST', '/api/notes', { patientId: patient.id, noteType: 'Progress Note', content: 'First words' });
    expect(created.status).toBe(201);
    await openNotes(page, 'nurse', `/notes?patientId=${patient.id}`);
    const card = cards(page).first();
    await card.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Note' });
    await dialog.getByLabel(/^Content/).fill('My words');

    // Changed elsewhere after the form read it.
    expect((await api(page, 'PUT', `/api/notes/${created.json.id}`, { updatedAt: created.json.updatedAt, content: 'Their words' })).status).toBe(200);
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    await toastText(page, 'Failed to update note').waitFor();
    const stale = dialog.getByTestId('note-stale');
    expect(await stale.innerText()).toContain('changed by someone else');
    // The list was read again behind the dialog.
    await expect.poll(() => card.getByTestId('note-content').innerText()).toBe('Their words');
    await stale.getByRole('button', { name: 'Reload note' }).click();
    await expect.poll(() => dialog.getByLabel(/^Content/).inputValue()).toBe('Their words');
    await dialog.getByLabel(/^Content/).fill('Both our words');
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    await toastText(page, 'Note updated successfully').waitFor();
    await expect.poll(() => card.getByTestId('note-content').innerText()).toBe('Both our words');
  });
});

describe('the note form', () => {
  it('names each missing field, and offers the nurse Save Draft and Submit to Scribe', async () => {
    const { page } = e2e;
    await openNotes(page, 'nurse');
    await page.getByRole('button', { name: 'Create New Note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Note' });
    await dialog.getByRole('button', { name: 'Submit to Scribe' }).waitFor();
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    expect(await dialog.getByTestId('patientId-error').innerText()).toBe('Patient is required');
    expect(await dialog.getByTestId('noteType-error').innerText()).toBe('Note type is required');
    expect(await dialog.getByTestId('content-error').innerText()).toBe('Content is required');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Whitespace is no content.
    await dialog.getByLabel(/^Content/).fill('   ');
    await chooseType(dialog, 'Progress Note');
    await dialog.getByRole('button', { name: 'Submit to Scribe' }).click();
    expect(await dialog.getByTestId('content-error').innerText()).toBe('Content is required');
    expect(await dialog.getByTestId('noteType-error').count()).toBe(0);

    // While a file is still on its way, nothing can be sent.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/patient-attachments', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByTestId('file-upload-input').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdf(2_000) });
    await dialog.locator('[data-testid="file-upload-entry"][data-status="processing"]').waitFor();
    for (const name of ['Save Draft', 'Submit to Scribe']) expect(await dialog.getByRole('button', { name }).isDisabled()).toBe(true);
    release();
    await dialog.locator('[data-testid="file-upload-entry"][data-status="done"]').waitFor();
    for (const name of ['Save Draft', 'Submit to Scribe']) expect(await dialog.getByRole('button', { name }).isDisabled()).toBe(false);
  });

  it('drops a patient search the user has typed past: the request is aborted, not just ignored', async () => {
    const { page } = e2e;
    // Every aborted fetch of the page, recorded as it happens.
    await page.addInitScript(() => {
      const aborted: string[] = [];
      (window as unknown as { abortedFetches: string[] }).abortedFetches = aborted;
      const original = window.fetch.bind(window);
      window.fetch = (input, init) => {
        init?.signal?.addEventListener('abort', () => aborted.push(String(input)));
        return original(input, init);
      };
    });
    // The first term's answer is held until the next term's has come, so the next term overtakes it.
    let overtaken = () => {};
    const held = new Promise<void>((resolve) => (overtaken = resolve));
    await page.route(
      (url) => url.pathname === '/api/patients' && url.searchParams.get('search') === 'Oli',
      async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      },
    );
    await openNotes(page, 'nurse');
    await page.getByRole('button', { name: 'Create New Note' }).click();
    const input = page.getByRole('dialog', { name: 'Create New Note' }).getByLabel(/^Patient/);
    const slow = page.waitForRequest((request) => new URL(request.url()).searchParams.get('search') === 'Oli');
    await input.pressSequentially('Oli');
    await slow;
    const next = page.waitForResponse((response) => new URL(response.url()).searchParams.get('search') === 'Olivia');
    await input.pressSequentially('via');
    await next;
    overtaken();
    await expect.poll(() => page.getByTestId('patient-option').allInnerTexts()).toEqual([expect.stringMatching(/^Olivia Hart #/)]);
    const aborted = await page.evaluate(() => (window as unknown as { abortedFetches: string[] }).abortedFetches);
    expect(aborted.map((url) => new URL(url, 'http://x').searchParams.get('search'))).toEqual(['Oli']);
    // Escape closes the list of matches, and only that: the form stays open.
    await input.press('Escape');
    await expect.poll(() => page.getByRole('listbox', { name: 'Matching patients' }).count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Create New Note' }).isVisible()).toBe(true);
  });

  it('opened from a patient-filtered screen, starts with that patient and submits straight to the scribe', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openNotes(page, 'nurse', `/notes?patientId=${patient.id}`);
    await page.getByRole('button', { name: 'Create New Note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Note' });
    const summary = dialog.getByTestId('patient-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain(patient.name);
    expect(await summary.innerText()).toContain('Born May 6, 1990');
    await chooseType(dialog, 'Follow-up Note');
    await dialog.getByLabel(/^Content/).fill('Follow-up call done.');
    await dialog.getByRole('button', { name: 'Submit to Scribe' }).click();
    await toastText(page, 'Note created successfully').waitFor();
    await expect.poll(() => statusOf(cards(page).first())).toBe('submitted_to_scribe');
    expect(await cards(page).count()).toBe(1);
  });
});

describe('tabs and states', () => {
  it('shows each tab its empty text, by role, for a patient without notes, and clears the filter', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openNotes(page, 'nurse', `/notes?patientId=${patient.id}`);
    await expect.poll(() => page.getByTestId('patient-filter').innerText()).toBe(`Notes for ${patient.name}`);
    const empty = page.getByTestId('notes-empty');
    await empty.waitFor();
    expect(await emptyText(empty)).toEqual(['No notes found', 'Create your first patient note to get started']);
    await page.getByRole('tab', { name: 'Pending Review' }).click();
    await expect.poll(() => emptyText(empty)).toEqual(['No pending notes']);
    await page.getByRole('tab', { name: 'Reviewed' }).click();
    await expect.poll(() => emptyText(empty)).toEqual(['No reviewed notes']);
    expect(page.url()).toContain(`patientId=${patient.id}`);
    expect(page.url()).toContain('tab=reviewed');

    const scribe = await e2e.newPage();
    await openNotes(scribe, 'scribe', `/notes?patientId=${patient.id}`);
    await scribe.getByTestId('notes-empty').waitFor();
    expect(await emptyText(scribe.getByTestId('notes-empty'))).toEqual(['No notes found', 'No notes available for review']);
    expect(await scribe.getByRole('button', { name: 'Create New Note' }).count()).toBe(0);

    // An admin may create a note too, but the invitation is the nurse's (spec section 5; issue 29).
    const admin = await e2e.newPage();
    await openNotes(admin, 'admin', `/notes?patientId=${patient.id}`);
    await admin.getByTestId('notes-empty').waitFor();
    expect(await emptyText(admin.getByTestId('notes-empty'))).toEqual(['No notes found', 'No notes available for review']);
    expect(await admin.getByRole('button', { name: 'Create New Note' }).count()).toBe(1);

    // Back to every note, on the same tab: the nurse has no reviewed notes, but drafts to show.
    await page.getByRole('link', { name: 'Show all notes' }).click();
    await page.waitForURL('/notes?tab=reviewed');
    expect(await page.getByTestId('patient-filter').count()).toBe(0);
    await page.getByRole('tab', { name: 'My Notes' }).click();
    await cards(page).first().waitFor();
  });

  it('illustrates the workflow with every stage and the count of notes in each', async () => {
    const { page } = e2e;
    await openNotes(page, 'admin', '/notes?tab=workflow');
    const stages = page.getByTestId('workflow-stage');
    await stages.first().waitFor();
    expect(await stages.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual([
      'draft',
      'submitted_to_scribe',
      'reviewed_by_scribe',
      'finalized',
      'submitted_to_admin',
    ]);
    expect(await stages.getByTestId('note-status').allInnerTexts()).toEqual(['Draft', 'Submitted', 'Reviewed', 'Finalized', 'Submitted to Admin']);
    // Spec section 4's badge colours: gray, blue, yellow, green, purple.
    const colours = await stages.getByTestId('note-status').evaluateAll((els) => els.map((el) => el.className));
    ['bg-slate-100', 'bg-blue-100', 'bg-yellow-100', 'bg-green-100', 'bg-purple-100'].forEach((colour, i) => expect(colours[i]).toContain(colour));
    const { headers } = await api(page, 'GET', '/api/notes?status=finalized&limit=1');
    await expect.poll(() => stages.nth(3).getByTestId('workflow-count').textContent()).toMatch(new RegExp(`^${headers['x-total-count']} notes?$`));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/workflow-1280.png` });
  });

  it('shows skeleton cards while loading, then an error with a retry', async () => {
    const { page } = e2e;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let fail = true;
    await page.route(
      (url) => url.pathname === '/api/notes',
      async (route) => {
        await released;
        if (fail) await route.fulfill({ status: 500, json: { message: 'Database unavailable' } });
        else await route.continue();
      },
    );
    await openNotes(page, 'nurse');
    await page.getByTestId('note-card-skeleton').first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Loading notes' }).count()).toBe(1);
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load notes' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Database unavailable');
    fail = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await cards(page).first().waitFor();
  });
});

describe('by role', () => {
  it("gives the scheduler 'Add Scribe': she routes a note waiting for review to a scribe, who is told live (issue 29)", async () => {
    const { page } = e2e;
    // A note of the test's own, submitted by a nurse, with words the scheduler must not see.
    const nurse = await e2e.newPage();
    await openNotes(nurse, 'nurse');
    const patient = await newPatient(nurse);
    const secret = `Private words ${uniqueWord()}`;
    const created = await api<TApiNote>(nurse, 'POST', '/api/notes', {
      patientId: patient.id,
      noteType: 'Progress Note',
      content: secret,
      status: 'submitted_to_scribe',
    });
    expect(created.status).toBe(201);
    const scribe = await e2e.newPage();
    await openNotes(scribe, 'scribe');

    await openNotes(page, 'scheduler');
    await cards(page).first().waitFor();
    expect(await page.getByRole('button', { name: 'Create New Note' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add Scribe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Scribe' });
    const item = dialog.locator(`[data-testid="review-queue-item"][data-note-id="${created.json.id}"]`);
    await item.waitFor();
    expect(await item.innerText()).toContain(patient.name);
    expect(await item.getByTestId('review-queue-scribe').innerText()).toBe('No scribe assigned yet');
    expect(await dialog.innerText()).not.toContain(secret);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await item.getByLabel(/^Scribe/).selectOption({ label: 'Sara Lopez' });
    await item.getByRole('button', { name: /^Assign/ }).click();
    await toastText(page, 'Scribe assigned').waitFor();
    await expect.poll(() => item.getByTestId('review-queue-scribe').innerText()).toBe('Assigned to Sara Lopez');
    // The scribe is told at once, without a reload.
    await toastText(scribe, 'Note assigned to you for review').waitFor();
    await scribe.goto('/notes?tab=pending');
    await expect.poll(() => cardWith(scribe, secret).getByTestId('note-scribe').innerText()).toBe('for review by Sara Lopez');
    await page.keyboard.press('Escape');
    // She sees reviewed and finalized notes only, and may finalize a reviewed one.
    const statuses = await cards(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
    expect(statuses.every((s) => ['reviewed_by_scribe', 'finalized', 'submitted_to_admin'].includes(s!))).toBe(true);
    expect(await cards(page).getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('tells a supplier plainly that notes are not for her role, without asking the API', async () => {
    const { page } = e2e;
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/notes')) calls.push(request.url());
    });
    await openNotes(page, 'supplier');
    await page.getByTestId('notes-no-access').waitFor();
    expect(await page.getByText('You have no access to patient notes').isVisible()).toBe(true);
    expect(calls).toEqual([]);
  });
});

describe('at 375 px', () => {
  it('fits the list, the form and the history on a phone without sideways scrolling', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'admin');
    // A note of the admin's own, amended on its way, so the history has text before and after.
    const patient = await newPatient(page);
    const created = await api<TApiNote>(page, 'POST', '/api/notes', {
      patientId: patient.id,
      noteType: 'Consultation Note',
      content: 'Consulted on a long-standing knee complaint; advised rest and ice.',
    });
    expect(created.status).toBe(201);
    expect(
      (
        await api(page, 'PUT', `/api/notes/${created.json.id}`, {
          updatedAt: created.json.updatedAt,
          content: 'Consulted on a long-standing knee complaint; advised rest, ice and a follow-up in two weeks.',
        })
      ).status,
    ).toBe(200);
    await openNotes(page, 'admin');
    const first = cards(page).first();
    await first.waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    for (const tab of await page.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    }
    await page.screenshot({ path: `${SHOTS}/list-375.png`, fullPage: true });

    await page.getByRole('button', { name: 'Create New Note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Note' });
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    await dialog.getByTestId('content-error').waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dialog-375.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await cardWith(page, patient.name)
      .getByRole('button', { name: /^History/ })
      .click();
    const history = page.getByRole('dialog', { name: 'Note History' });
    await history.getByTestId('history-entry').first().waitFor();
    expect(await history.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/history-375.png` });
    await history.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('tab', { name: 'Workflow' }).click();
    await page.getByTestId('workflow-count').first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/workflow-375.png`, fullPage: true });
  });
});
