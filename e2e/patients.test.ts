import { readFile } from 'node:fs/promises';
import type { Locator, Page, Request } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The demo clinic seeds these (server/seed/demo-clinic.ts); tests that add patients give them
// unique names, so no test depends on another's leftovers.
const OLIVIA = { name: 'Olivia Hart', email: 'olivia.hart@example.com', phone: '(555) 0100-1000', dob: 'Mar 12, 1984', insurance: 'Blue Cross' };
const NOAH = { name: 'Noah Garcia' }; // seeded without phone or insurance

interface TApiPatient {
  id: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  updatedAt: string;
}

async function createViaApi(page: Page, fields: Record<string, unknown>): Promise<TApiPatient> {
  const { status, json } = await api<TApiPatient>(page, 'POST', '/api/patients', fields);
  expect(status).toBe(201);
  return json;
}

const cards = (page: Page) => page.getByTestId('patient-card');
const cardOf = (page: Page, name: string) => cards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (page: Page) => cards(page).getByRole('heading').allInnerTexts();
const searchBox = (page: Page) => page.getByPlaceholder('Search patients by name or email...');
const isList = (url: string | URL) => new URL(url).pathname === '/api/patients';
const isListRead = (request: Request) => request.method() === 'GET' && isList(request.url());

async function openPatients(page: Page, account: Parameters<typeof signInAs>[1] = 'admin'): Promise<void> {
  await signInAs(page, account, { landOn: '/patients' });
  await page.getByRole('heading', { name: 'Patients', level: 1 }).waitFor();
}

/** The text colour as [r, g, b], whatever CSS colour syntax the stylesheet used. */
async function rgb(locator: Locator): Promise<number[]> {
  return locator.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data).slice(0, 3);
  });
}

describe('patients list', () => {
  it('shows the title, the total, and a card per patient with every field, its fallback and its buttons', async () => {
    const { page } = e2e;
    await openPatients(page);
    expect(await page.getByText('Manage patient records and information').isVisible()).toBe(true);
    await cardOf(page, OLIVIA.name).waitFor();

    const { json: all, headers } = await api<TApiPatient[]>(page, 'GET', '/api/patients?limit=200');
    const total = Number(headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(16);
    expect(await page.getByTestId('patient-count').innerText()).toBe(`${total} patients`);
    // Server order: last name, then first name.
    expect(await cardNames(page)).toEqual(all.slice(0, 24).map((p) => `${p.firstName} ${p.lastName}`));

    const olivia = cardOf(page, OLIVIA.name);
    const text = await olivia.innerText();
    for (const part of [OLIVIA.email, 'Active', OLIVIA.phone, OLIVIA.dob, OLIVIA.insurance]) expect(text).toContain(part);
    expect(await olivia.getByRole('button', { name: /^Edit/ }).isVisible()).toBe(true);
    const oliviaId = all.find((p) => `${p.firstName} ${p.lastName}` === OLIVIA.name)!.id;
    expect(await olivia.getByRole('link', { name: /^View/ }).getAttribute('href')).toBe(`/appointments?patientId=${oliviaId}`);

    const noah = await cardOf(page, NOAH.name).innerText();
    expect(noah).toContain('No phone');
    expect(noah).toContain('No insurance');

    await olivia.getByRole('link', { name: /^View/ }).click();
    await page.waitForURL(`/appointments?patientId=${oliviaId}`);
  });

  it('shows six skeleton cards while the list loads', async () => {
    const { page } = e2e;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(isList, async (route) => {
      await released;
      await route.continue();
    });
    await openPatients(page);
    await page.getByTestId('patient-card-skeleton').first().waitFor();
    expect(await page.getByTestId('patient-card-skeleton').count()).toBe(6);
    expect(await page.getByRole('status').filter({ hasText: 'Loading patients' }).count()).toBe(1);
    expect(await cards(page).count()).toBe(0);

    release();
    await cardOf(page, OLIVIA.name).waitFor();
    expect(await page.getByTestId('patient-card-skeleton').count()).toBe(0);
  });

  it('shows an error with a retry when the list cannot load', async () => {
    const { page } = e2e;
    await page.route(isList, (route) => route.fulfill({ status: 500, json: { message: 'Internal server error' } }));
    await openPatients(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load patients' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Internal server error');

    await page.unroute(isList);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await cardOf(page, OLIVIA.name).waitFor();
  });

  it('loads more patients as the list scrolls, page by page with the server cursor', async () => {
    const { page } = e2e;
    // Small pages, so the demo clinic spans several; the server's own paging answers them.
    const PAGE = 5;
    let releaseSecond!: () => void;
    const secondReleased = new Promise<void>((resolve) => (releaseSecond = resolve));
    const cursors: string[] = [];
    await page.route(isList, async (route) => {
      const url = new URL(route.request().url());
      // The test's own read of the whole list (limit=200) passes untouched.
      if (url.searchParams.get('limit') === '200') return route.continue();
      url.searchParams.set('limit', String(PAGE));
      const cursor = url.searchParams.get('cursor');
      if (cursor) {
        cursors.push(cursor);
        if (cursors.length === 1) await secondReleased;
      }
      await route.continue({ url: url.toString() });
    });
    await openPatients(page);
    const { json: all } = await api<TApiPatient[]>(page, 'GET', '/api/patients?limit=200');

    // The first page is on screen and the next one is on its way, visibly.
    await page.getByText('Loading more…').waitFor();
    expect(await cards(page).count()).toBe(PAGE);
    expect(await page.getByTestId('patient-count').innerText()).toBe(`${all.length} patients`);

    releaseSecond();
    // Scrolling to the end keeps loading until every patient is there.
    await expect
      .poll(
        async () => {
          await page.locator('#main-content').evaluate((main) => main.scrollTo(0, main.scrollHeight));
          return cards(page).count();
        },
        { timeout: 20_000 },
      )
      .toBe(all.length);
    expect(await cardNames(page)).toEqual(all.map((p) => `${p.firstName} ${p.lastName}`));
    expect(cursors.length).toBe(Math.ceil(all.length / PAGE) - 1);
    expect(await page.getByTestId('patients-load-more').count()).toBe(0);
  });

  it("offers 'Load more' again when a later page fails", async () => {
    const { page } = e2e;
    let failNext = true;
    await page.route(isList, async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '6');
      if (url.searchParams.get('cursor') && failNext) {
        failNext = false;
        await route.fulfill({ status: 503, json: { message: 'Service unavailable' } });
        return;
      }
      await route.continue({ url: url.toString() });
    });
    await openPatients(page);
    await page.getByText('Could not load more patients.').waitFor();
    expect(await cards(page).count()).toBe(6);

    await page.getByTestId('patients-load-more').getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => cards(page).count()).toBeGreaterThan(6);
  });

  it("a scribe sees the cards but neither 'Add New Patient' nor 'Edit'", async () => {
    const { page } = e2e;
    await openPatients(page, 'scribe');
    await cardOf(page, OLIVIA.name).waitFor();
    expect(await page.getByRole('button', { name: 'Add New Patient' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await cardOf(page, OLIVIA.name).getByRole('link', { name: /^View/ }).isVisible()).toBe(true);
  });

  it('a supplier who opens /patients is told they have no access, and the API is not called', async () => {
    const { page } = e2e;
    const reads: string[] = [];
    page.on('request', (request) => {
      if (isListRead(request) || new URL(request.url()).pathname.startsWith('/api/patients/')) reads.push(request.url());
    });
    await openPatients(page, 'supplier');
    await page.getByText('You have no access to patient records').waitFor();
    expect(await cards(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add New Patient' }).count()).toBe(0);
    expect(reads).toEqual([]);
  });

  it('fits one card per row at 375 px and several at 1280 px', async () => {
    const small = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openPatients(small);
    await cardOf(small, OLIVIA.name).waitFor();
    const boxes = await cards(small).evaluateAll((elements) => elements.slice(0, 3).map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    expect(new Set(boxes.map((box) => Math.round(box.left))).size).toBe(1);
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(375);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    const tops = await cards(page).evaluateAll((elements) => elements.slice(0, 3).map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
  });
});

describe('search', () => {
  it('searches the server as you type, case-insensitively, on a part of the name', async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    const searched: string[] = [];
    page.on('request', (request) => {
      if (isListRead(request)) searched.push(new URL(request.url()).searchParams.get('search') ?? '');
    });

    await searchBox(page).pressSequentially('hART', { delay: 40 });
    await expect.poll(() => cardNames(page)).toEqual([OLIVIA.name]);
    expect(await page.getByTestId('patient-count').innerText()).toBe('1 patient matching “hART”');
    // Debounced: not one request per key (4 keys, 40 ms apart; a slow machine may split them once).
    expect(searched.at(-1)).toBe('hART');
    expect(searched.length).toBeLessThan(3);

    await searchBox(page).fill('');
    await expect.poll(async () => (await cardNames(page)).length).toBeGreaterThanOrEqual(16);
  });

  it('cancels a search typed past on the wire, and shows the results of the last term', async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    const failed: { search: string | null; errorText: string | undefined }[] = [];
    page.on('requestfailed', (request) => {
      if (isListRead(request)) failed.push({ search: new URL(request.url()).searchParams.get('search'), errorText: request.failure()?.errorText });
    });
    // The first term's request is held at the network, so it is surely in flight when the user types on.
    let sawFirst!: () => void;
    const firstInFlight = new Promise<void>((resolve) => (sawFirst = resolve));
    let releaseFirst!: () => void;
    const firstReleased = new Promise<void>((resolve) => (releaseFirst = resolve));
    await page.route(isList, async (route) => {
      if (new URL(route.request().url()).searchParams.get('search') === 'Ha') {
        sawFirst();
        await firstReleased;
      }
      // The page may have cancelled it meanwhile; there is then nothing left to continue.
      await route.continue().catch(() => undefined);
    });

    await searchBox(page).fill('Ha');
    await firstInFlight;
    await searchBox(page).pressSequentially('rt');
    await expect.poll(() => cardNames(page)).toEqual([OLIVIA.name]);
    expect(await page.getByTestId('patient-count').innerText()).toBe('1 patient matching “Hart”');
    await expect.poll(() => failed).toEqual([{ search: 'Ha', errorText: expect.stringContaining('ERR_ABORTED') }]);

    // Let the cancelled request go: nothing late overwrites the newer results.
    releaseFirst();
    await page.unroute(isList);
    expect(await cardNames(page)).toEqual([OLIVIA.name]);
    expect(await page.getByTestId('patient-count').innerText()).toBe('1 patient matching “Hart”');
  });

  it("says '1,000+' when the server stopped counting a search's matches at its cap", async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    // The demo clinic is small: the server's real answer, with the headers of a capped count.
    await page.route(isList, async (route) => {
      if (!new URL(route.request().url()).searchParams.get('search')) return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-total-count': '1000', 'x-total-capped': '1' } });
    });
    await searchBox(page).fill('hart');
    await expect.poll(() => page.getByTestId('patient-count').innerText()).toBe('1,000+ patients matching “hart”');
    expect(await cardNames(page)).toEqual([OLIVIA.name]);
  });

  it("shows the server's reason and a retry when a search takes too long (503 search.timeout)", async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    const reason = 'Search is taking too long right now. Try again in a moment, or type more of the name.';
    await page.route(isList, (route) =>
      new URL(route.request().url()).searchParams.get('search')
        ? route.fulfill({ status: 503, headers: { 'retry-after': '2' }, json: { message: reason, code: 'search.timeout' } })
        : route.continue(),
    );
    await searchBox(page).fill('hart');
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load patients' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(reason);

    await page.unroute(isList);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => cardNames(page)).toEqual([OLIVIA.name]);
    expect(await page.getByTestId('patient-count').innerText()).toBe('1 patient matching “hart”');
  });

  it('matches a fragment of the email address', async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    await searchBox(page).fill('n.mensah@exa');
    await expect.poll(() => cardNames(page)).toEqual(['Logan Mensah']);
  });

  it("shows 'No patients found' with 'Try a different search term' when nothing matches", async () => {
    const { page } = e2e;
    await openPatients(page);
    await cardOf(page, OLIVIA.name).waitFor();
    await searchBox(page).fill(`no-such-${uniqueWord()}`);
    const empty = page.getByTestId('patients-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('No patients found');
    expect(await empty.innerText()).toContain('Try a different search term');
    expect(await cards(page).count()).toBe(0);
  });

  it("shows 'Add your first patient to get started' when the clinic has no patients", async () => {
    const { page } = e2e;
    // The demo clinic always has patients: an empty clinic is the one state answered here.
    await page.route(isList, (route) => route.fulfill({ json: [], headers: { 'x-total-count': '0' } }));
    await openPatients(page);
    const empty = page.getByTestId('patients-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('No patients found');
    expect(await empty.innerText()).toContain('Add your first patient to get started');
    expect(await page.getByTestId('patient-count').innerText()).toBe('0 patients');
  });
});

describe('patient form', () => {
  it('adds a patient through the dialog: saving state, toast, and the new card', async () => {
    const { page } = e2e;
    await openPatients(page, 'nurse');
    const last = `Zz${uniqueWord()}`;
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
    // The form's code loads when the dialog first opens.
    await dialog.getByRole('group', { name: 'Personal Information' }).waitFor();
    for (const section of ['Personal Information', 'Emergency Contact', 'Insurance Information', 'Medical Information']) {
      expect(await dialog.getByRole('group', { name: section }).count()).toBe(1);
    }
    expect(await dialog.getByLabel('Email', { exact: true }).getAttribute('type')).toBe('email');
    expect(await dialog.getByLabel('Date of birth').getAttribute('type')).toBe('date');
    expect(await dialog.getByLabel('First name').getAttribute('maxlength')).toBe('100');
    expect(await dialog.getByLabel('Phone', { exact: true }).getAttribute('maxlength')).toBe('20');

    await dialog.getByLabel('First name').fill('  Quinn ');
    await dialog.getByLabel('Last name').fill(last);
    await dialog.getByLabel('Email', { exact: true }).fill(`quinn.${last.toLowerCase()}@example.com`);
    await dialog.getByLabel('Phone', { exact: true }).fill('(555) 123-4567');
    await dialog.getByLabel('Insurance provider').fill('Aetna');
    // Allergies are her chart's list now (issue 51): the form says where, and asks no text.
    await dialog
      .getByTestId('patient-chart-summary')
      .getByText(/recorded on the patient.s chart once she is added/)
      .waitFor();
    expect(await dialog.getByLabel('Allergies').count()).toBe(0);

    // Hold the request a moment to see the saving state.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(isList, async (route) => {
      if (route.request().method() === 'POST') await released;
      await route.continue();
    });
    const posted = page.waitForRequest((request) => request.method() === 'POST' && isList(request.url()));
    await dialog.getByRole('button', { name: 'Create Patient' }).click();
    const saving = dialog.getByRole('button', { name: 'Saving...' });
    await saving.waitFor();
    expect(await saving.isDisabled()).toBe(true);
    release();
    const body = (await posted).postDataJSON();
    expect(body).toMatchObject({ firstName: 'Quinn', lastName: last, dateOfBirth: null });
    expect(body.allergies ?? null).toBeNull();
    expect(body.confirmDuplicate).toBeUndefined();

    await toastText(page, 'Patient created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const card = cardOf(page, `Quinn ${last}`);
    await card.waitFor();
    const text = await card.innerText();
    for (const part of [`quinn.${last.toLowerCase()}@example.com`, '(555) 123-4567', 'No DOB', 'Aetna', 'Active']) expect(text).toContain(part);
  });

  it('shows red field errors under the fields and sends nothing while the form is invalid', async () => {
    const { page } = e2e;
    await openPatients(page);
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && isList(request.url()) && posts.push(request.url()));
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
    await dialog.getByLabel('First name').fill('Nolast');
    await dialog.getByLabel('Email', { exact: true }).fill('not-an-email');
    await dialog.getByLabel('Date of birth').fill('2999-01-01');
    await dialog.getByRole('button', { name: 'Create Patient' }).click();

    const lastNameError = dialog.getByTestId('lastName-error');
    await lastNameError.waitFor();
    expect(await lastNameError.innerText()).toBe('Last name is required');
    const [r, g, b] = await rgb(lastNameError);
    expect(r, `error colour ${r},${g},${b}`).toBeGreaterThan(150);
    expect(g! + b!).toBeLessThan(r!);
    const lastName = dialog.getByLabel('Last name');
    expect(await lastName.getAttribute('aria-invalid')).toBe('true');
    expect(await lastName.getAttribute('aria-describedby')).toBe(await lastNameError.getAttribute('id'));
    expect(await dialog.getByTestId('email-error').innerText()).toBe('Enter a valid email address');
    expect(await dialog.getByTestId('dateOfBirth-error').innerText()).toBe('Date of birth cannot be in the future');
    expect(await dialog.getByTestId('firstName-error').count()).toBe(0);
    expect(posts).toEqual([]); // nothing left the browser, so nothing was created

    // Fixing a field clears its error on the next try.
    await lastName.fill('Fixed');
    await dialog.getByLabel('Email', { exact: true }).fill('');
    await dialog.getByLabel('Date of birth').fill('');
    await page.route(isList, (route) => (route.request().method() === 'POST' ? route.abort() : route.continue()));
    await dialog.getByRole('button', { name: 'Create Patient' }).click();
    await expect.poll(() => dialog.getByTestId('lastName-error').count()).toBe(0);
    await page.unroute(isList);
    expect(posts.length).toBe(1); // only the valid attempt left the browser
    expect(await dialog.isVisible()).toBe(true);
  });

  it("maps the server's 400 field errors onto the fields and shows the 'Error' toast", async () => {
    const { page } = e2e;
    await openPatients(page);
    await page.route(isList, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, json: { message: 'Validation failed', errors: [{ path: 'phone', message: 'Must be at most 20 characters' }] } })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
    await dialog.getByLabel('First name').fill('Server');
    await dialog.getByLabel('Last name').fill('Refused');
    await dialog.getByLabel('Phone', { exact: true }).fill('555');
    await dialog.getByRole('button', { name: 'Create Patient' }).click();

    await dialog.getByTestId('phone-error').waitFor();
    expect(await dialog.getByTestId('phone-error').innerText()).toBe('Must be at most 20 characters');
    expect(await dialog.getByLabel('Phone', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await toastText(page, 'Failed to create patient').waitFor();
    expect(await toastText(page, 'Error').isVisible()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Create Patient' }).isEnabled()).toBe(true);
  });

  it('edits a patient: only the changed field and updatedAt are sent, the card shows the new phone', async () => {
    const { page } = e2e;
    await openPatients(page, 'scheduler');
    const last = `Zz${uniqueWord()}`;
    const patient = await createViaApi(page, { firstName: 'Edna', lastName: last, phone: '(555) 000-0001', dateOfBirth: '1970-05-06' });
    await page.reload();
    const card = cardOf(page, `Edna ${last}`);
    await card.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Patient' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Date of birth').inputValue()).toBe('1970-05-06');
    await dialog.getByLabel('Phone', { exact: true }).fill('(555) 999-8888');

    const put = page.waitForRequest((request) => request.method() === 'PUT');
    await dialog.getByRole('button', { name: 'Update Patient' }).click();
    const request = await put;
    expect(new URL(request.url()).pathname).toBe(`/api/patients/${patient.id}`);
    expect(request.postDataJSON()).toEqual({ phone: '(555) 999-8888', updatedAt: patient.updatedAt });

    await toastText(page, 'Patient updated successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => card.innerText()).toContain('(555) 999-8888');
    expect(await card.innerText()).toContain('May 6, 1970');
  });

  it("refuses an edit made over someone else's change, and reloads the record on request", async () => {
    const { page } = e2e;
    await openPatients(page);
    const last = `Zz${uniqueWord()}`;
    const patient = await createViaApi(page, { firstName: 'Stale', lastName: last, phone: '(555) 000-0002' });
    await page.reload();
    await cardOf(page, `Stale ${last}`).getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Patient' });
    await dialog.waitFor();

    // Someone else saves first.
    const other = await api<TApiPatient>(page, 'PUT', `/api/patients/${patient.id}`, { insuranceProvider: 'Cigna', updatedAt: patient.updatedAt });
    expect(other.status).toBe(200);

    await dialog.getByLabel('Phone', { exact: true }).fill('(555) 111-2222');
    await dialog.getByRole('button', { name: 'Update Patient' }).click();
    const stale = dialog.getByTestId('patient-stale');
    await stale.waitFor();
    expect(await stale.innerText()).toContain('changed by someone else');
    await toastText(page, 'Failed to update patient').waitFor();

    await stale.getByRole('button', { name: 'Reload patient' }).click();
    await stale.waitFor({ state: 'hidden' });
    expect(await dialog.getByLabel('Insurance provider').inputValue()).toBe('Cigna');
    expect(await dialog.getByLabel('Phone', { exact: true }).inputValue()).toBe('(555) 000-0002');

    await dialog.getByLabel('Phone', { exact: true }).fill('(555) 111-2222');
    await dialog.getByRole('button', { name: 'Update Patient' }).click();
    await toastText(page, 'Patient updated successfully').waitFor();
    // The toast comes with the save; the list's re-read lands a moment later.
    const card = cardOf(page, `Stale ${last}`);
    await expect.poll(() => card.innerText()).toContain('(555) 111-2222');
    expect(await card.innerText()).toContain('Cigna');
  });

  it("warns about a possible duplicate, 'Cancel' creates nothing and 'Create anyway' creates it", async () => {
    const { page } = e2e;
    await openPatients(page);
    const last = `Zz${uniqueWord()}`;
    await createViaApi(page, { firstName: 'Dana', lastName: last, dateOfBirth: '1990-01-02' });
    await page.reload();
    await cardOf(page, `Dana ${last}`).waitFor();

    const fillTwin = async () => {
      await page.getByRole('button', { name: 'Add New Patient' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
      await dialog.getByLabel('First name').fill('dana');
      await dialog.getByLabel('Last name').fill(last.toUpperCase());
      await dialog.getByLabel('Date of birth').fill('1990-01-02');
      await dialog.getByRole('button', { name: 'Create Patient' }).click();
      const warning = dialog.getByTestId('duplicate-warning');
      await warning.waitFor();
      return { dialog, warning };
    };

    const first = await fillTwin();
    expect(await first.warning.getByRole('heading').innerText()).toBe('Possible duplicate patient');
    expect(await first.warning.getByTestId('duplicate-match').innerText()).toBe(`Dana ${last} · born Jan 2, 1990`);
    await first.warning.getByRole('button', { name: 'Cancel' }).click();
    await first.dialog.waitFor({ state: 'hidden' });
    await searchBox(page).fill(last);
    await expect.poll(() => cardNames(page)).toEqual([`Dana ${last}`]);

    const second = await fillTwin();
    const posted = page.waitForRequest((request) => request.method() === 'POST' && isList(request.url()));
    await second.warning.getByRole('button', { name: 'Create anyway' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ firstName: 'dana', lastName: last.toUpperCase(), dateOfBirth: '1990-01-02', confirmDuplicate: true });
    await toastText(page, 'Patient created successfully').waitFor();
    await second.dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await cardNames(page)).length).toBe(2);
  });

  it('changing the name or birth date clears the duplicate warning', async () => {
    const { page } = e2e;
    await openPatients(page);
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
    await dialog.getByLabel('First name').fill('Olivia');
    await dialog.getByLabel('Last name').fill('Hart');
    await dialog.getByLabel('Date of birth').fill('1984-03-12');
    await dialog.getByRole('button', { name: 'Create Patient' }).click();
    const warning = dialog.getByTestId('duplicate-warning');
    await warning.waitFor();
    expect(await warning.getByTestId('duplicate-match').innerText()).toBe(`${OLIVIA.name} · born ${OLIVIA.dob}`);
    await dialog.getByLabel('Date of birth').fill('1984-03-13');
    await warning.waitFor({ state: 'hidden' });
  });

  it('an admin deactivates a patient after confirming; a nurse is not offered it', async () => {
    const { page } = e2e;
    await openPatients(page);
    const last = `Zz${uniqueWord()}`;
    await createViaApi(page, { firstName: 'Gone', lastName: last });
    await page.reload();
    const card = cardOf(page, `Gone ${last}`);
    await card.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Patient' });
    await dialog.getByRole('button', { name: 'Deactivate patient' }).click();
    await dialog.getByRole('group', { name: 'Confirm deactivation' }).getByRole('button', { name: 'Deactivate', exact: true }).click();
    await toastText(page, 'Patient deactivated').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await card.waitFor({ state: 'detached' });

    const nursePage = await e2e.newPage();
    await openPatients(nursePage, 'nurse');
    await cardOf(nursePage, OLIVIA.name).getByRole('button', { name: /^Edit/ }).click();
    const nurseDialog = nursePage.getByRole('dialog', { name: 'Edit Patient' });
    await nurseDialog.waitFor();
    expect(await nurseDialog.getByRole('button', { name: 'Deactivate patient' }).count()).toBe(0);
  });
});

describe("'Export record'", () => {
  it("downloads the patient's record as a PDF summary and as a FHIR Bundle from her card", async () => {
    const { page } = e2e;
    await openPatients(page, 'nurse');
    const olivia = cardOf(page, OLIVIA.name);
    await olivia.getByRole('button', { name: `Export record of ${OLIVIA.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Export record' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`A copy of ${OLIVIA.name}'s record`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const [pdf] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('export-record-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/^record-[0-9a-f-]{36}\.pdf$/);
    const bytes = await readFile((await pdf.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(text).toContain(`Health record: ${OLIVIA.name}`);

    const href = await dialog.getByTestId('export-record-json').getAttribute('href');
    const bundle = await (await page.request.get(new URL(href!, page.url()).toString())).json();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(bundle.entry[0].resource.name[0].text).toBe(OLIVIA.name);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
