import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TAllergy } from '#domain/chart';
import { api } from './helpers/api.ts';
import { signInAs, type TDemoAccount } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The clinical chart's allergy list and the allergy banner (issue 51). Each test uses a patient of
// its own, so none depends on another's entries.

async function newPatient(page: Page): Promise<{ id: string; name: string }> {
  const last = uniqueWord();
  const { status, json } = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: 'Chart', lastName: last, dateOfBirth: '1968-02-03' });
  expect(status).toBe(201);
  return { id: json.id, name: `Chart ${last}` };
}

async function openChart(page: Page, account: TDemoAccount, patientId: string): Promise<void> {
  await signInAs(page, account, { landOn: `/chart?patientId=${patientId}` });
  await page.getByTestId('allergy-section').waitFor();
}

const banner = (page: Page) => page.getByTestId('allergy-banner');
const rows = (page: Page) => page.getByTestId('allergy-row');

/** Adds an allergy through the dialog, its substance typed and chosen from the catalogue's matches by its name. */
async function addAllergy(page: Page, name: string, { category, criticality }: { category?: string; criticality?: string } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Add allergy' }).click();
  const dialog = page.getByTestId('allergy-dialog');
  await dialog.getByRole('combobox', { name: /Substance/ }).fill(name.toLowerCase());
  await dialog.getByRole('option', { name: new RegExp(`^${name}\\b`) }).click();
  await dialog.getByTestId('substance-coded').waitFor();
  if (category) await dialog.getByLabel('Category').selectOption(category);
  if (criticality) await dialog.getByLabel('Criticality').selectOption(criticality);
  await dialog.getByLabel(/Reactions/).fill('Hives, wheeze');
  await dialog.getByRole('button', { name: 'Add Allergy' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the allergy list and its banner', () => {
  it('a nurse records a high-criticality drug allergy from the catalogue: the banner turns red, and the record shows it too', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);
    // Never asked: neither NKA nor a list.
    await expect.poll(() => banner(page).getAttribute('data-state')).toBe('unknown');
    await expect.poll(() => banner(page).textContent()).toContain('Allergies not recorded');

    await addAllergy(page, 'Penicillins', { criticality: 'high' });
    await toastText(page, 'Allergy recorded').waitFor();
    await expect.poll(() => banner(page).getAttribute('data-tone')).toBe('high');
    await expect.poll(() => banner(page).textContent()).toMatch(/Penicillins\s*HIGH: Hives, wheeze/);
    // Chosen from the catalogue: stored by its code, with the catalogue's own name and category.
    const { json: chart } = await api<{ allergies: TAllergy[] }>(page, 'GET', `/api/patients/${patient.id}/chart`);
    expect(chart.allergies.map((a) => [a.substance.kind, a.substance.code, a.category, a.state])).toEqual([
      ['class', 'penicillins', 'medication', 'confirmed'],
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("a scribe's entry is a draft the nurse's open chart shows live, and confirms", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);
    await page.getByTestId('allergy-section-empty').waitFor();

    const scribe = await e2e.newPage();
    await openChart(scribe, 'scribe', patient.id);
    // A scribe drafts: no statement controls, no confirm.
    expect(await scribe.getByTestId('allergy-statement-controls').count()).toBe(0);
    await addAllergy(scribe, 'Peanut');
    await toastText(scribe, 'Allergy drafted for a nurse to confirm').waitFor();
    await scribe.getByTestId('draft-badge').waitFor();

    // The nurse's chart, open all along, shows it without a reload (chart_changed).
    const row = rows(page).filter({ hasText: 'Peanut' });
    await row.getByTestId('draft-badge').waitFor();
    await expect.poll(() => banner(page).textContent()).toContain('(unconfirmed)');
    await row.getByRole('button', { name: 'Confirm Peanut' }).click();
    await toastText(page, 'Entry confirmed').waitFor();
    await expect.poll(() => row.getAttribute('data-state')).toBe('confirmed');
    await expect.poll(() => banner(page).textContent()).not.toContain('(unconfirmed)');
    // The scribe may no longer change what a nurse confirmed.
    await expect.poll(() => rows(scribe).filter({ hasText: 'Peanut' }).getAttribute('data-state')).toBe('confirmed');
    expect(await rows(scribe).getByRole('button', { name: /^Edit/ }).count()).toBe(0);
  });

  it("'No known allergies' is stated, shown with who and when, and withdrawn by the first allergy recorded", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);
    await page.getByRole('button', { name: /Record No known allergies/ }).click();
    await toastText(page, 'No known allergies').waitFor();
    await expect.poll(() => banner(page).getAttribute('data-state')).toBe('nka');
    await expect.poll(() => banner(page).textContent()).toMatch(/NKA: No known allergies \(stated by Nora Bennett, /);

    await addAllergy(page, 'Latex', { category: 'environment' });
    await expect.poll(() => banner(page).getAttribute('data-state')).toBe('listed');
    expect(await page.getByTestId('allergy-statement').count()).toBe(0);
    // With a non-drug allergy listed, NKDA still may be stated, and shows with the list.
    await page.getByRole('button', { name: /Record No known drug allergies/ }).click();
    await expect.poll(() => banner(page).textContent()).toMatch(/Latex.*NKDA: No known drug allergies/s);
  });

  it('an entry recorded in error is struck through, leaves the banner, and keeps its reason in its history', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);
    await addAllergy(page, 'Amoxicillin');
    const row = rows(page).filter({ hasText: 'Amoxicillin' });
    await row.getByRole('button', { name: /^Entered in error/ }).click();
    const dialog = page.getByTestId('entered-in-error-dialog');
    await dialog.getByRole('button', { name: 'Mark entered in error' }).click();
    await dialog.getByText('Say why this entry was entered in error').waitFor();
    await dialog.getByLabel('Why').fill('Recorded on the wrong patient');
    await dialog.getByRole('button', { name: 'Mark entered in error' }).click();
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => row.getAttribute('data-status')).toBe('entered_in_error');
    await expect.poll(() => banner(page).getAttribute('data-state')).toBe('unknown');
    await row.getByRole('button', { name: /^History/ }).click();
    const history = page.getByTestId('chart-history-dialog');
    await expect
      .poll(() => history.getByTestId('chart-revision').evaluateAll((els) => els.map((el) => el.getAttribute('data-action'))))
      .toEqual(['entered_in_error', 'created']);
    await history.getByText('Why: Recorded on the wrong patient').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('problems, medications and vital signs', () => {
  it('a nurse adds a coded problem and a formulary medication; a stopped one needs its day', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);

    await page.getByRole('button', { name: 'Add problem' }).click();
    const problemDialog = page.getByTestId('problem-dialog');
    await problemDialog.getByRole('combobox', { name: /Condition/ }).fill('essential');
    await problemDialog.getByRole('option', { name: /^Essential \(primary\) hypertension/ }).click();
    await problemDialog.getByText('ICD-10-CM I10').waitFor();
    await problemDialog.getByRole('button', { name: 'Add Problem' }).click();
    await problemDialog.waitFor({ state: 'detached' });
    await page.getByTestId('problem-row').filter({ hasText: 'ICD-10-CM I10' }).waitFor();

    await page.getByRole('button', { name: 'Add medication' }).click();
    const medicationDialog = page.getByTestId('medication-dialog');
    await medicationDialog.getByRole('combobox', { name: /Medication/ }).fill('lisinopril 10');
    await medicationDialog.getByRole('option', { name: /^Lisinopril 10 mg tablet/ }).click();
    // The formulary's route comes with it.
    expect(await medicationDialog.getByLabel('Route').inputValue()).toBe('oral');
    await medicationDialog.getByLabel('Frequency').fill('once daily');
    await medicationDialog.getByLabel('Status').selectOption('stopped');
    await medicationDialog.getByRole('button', { name: 'Add Medication' }).click();
    await medicationDialog.getByText('A stopped medication needs the day it was stopped').waitFor();
    await medicationDialog.getByLabel('Status').selectOption('active');
    await medicationDialog.getByRole('button', { name: 'Add Medication' }).click();
    await medicationDialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('medication-row').filter({ hasText: 'Lisinopril 10 mg tablet' });
    await row.getByText('oral, once daily').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('vital signs are refused when impossible, naming the sign, flagged when out of range, and drawn as a trend', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await api(page, 'POST', `/api/patients/${patient.id}/vitals`, { takenAt: '2026-01-05T15:00:00Z', systolic: 162, diastolic: 100, heartRate: 80 });
    await openChart(page, 'nurse', patient.id);

    await page.getByRole('button', { name: 'Record vitals' }).click();
    const dialog = page.getByTestId('vitals-dialog');
    await dialog.getByLabel('Heart rate (bpm)').fill('1200');
    await dialog.getByLabel('Systolic blood pressure (mmHg)').fill('150');
    await dialog.getByLabel('Diastolic blood pressure (mmHg)').fill('92');
    await dialog.getByRole('button', { name: 'Record Vital Signs' }).click();
    await dialog.getByText('Heart rate must be between 20 and 300 bpm').waitFor();
    await dialog.getByLabel('Heart rate (bpm)').fill('72');
    await dialog.getByRole('button', { name: 'Record Vital Signs' }).click();
    await dialog.waitFor({ state: 'detached' });

    const systolic = page.getByTestId('latest-vitals').locator('[data-sign=systolic]');
    await expect.poll(() => systolic.textContent()).toContain('150 mmHg');
    expect(await systolic.getAttribute('data-flag')).toBe('high');
    await page.getByRole('button', { name: 'Trend of Systolic blood pressure' }).click();
    await expect.poll(() => page.getByTestId('vital-trend-point').count()).toBe(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('where the banner shows, and who sees what', () => {
  it('a scheduler sees the banner on the scheduling form and her appointments, not the chart', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await openChart(page, 'nurse', patient.id);
    await addAllergy(page, 'Penicillins', { criticality: 'high' });

    const scheduler = await e2e.newPage();
    await signInAs(scheduler, 'scheduler', { landOn: `/schedule-appointment?patientId=${patient.id}` });
    await expect.poll(() => scheduler.getByTestId('chosen-patient').getByTestId('allergy-banner').getAttribute('data-tone')).toBe('high');
    await scheduler.goto(`/appointments?patientId=${patient.id}`);
    await expect.poll(() => banner(scheduler).textContent()).toContain('Penicillins');
    expect(await scheduler.getByRole('link', { name: 'Chart' }).count()).toBe(0);
    await scheduler.goto(`/chart?patientId=${patient.id}`);
    await scheduler.getByTestId('chart-no-access').waitFor();
    expect((await api(scheduler, 'GET', `/api/patients/${patient.id}/chart`)).status).toBe(403);
  });

  it('the chart is reached from the patient card, and fits a 375 px screen', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'nurse');
    const patient = await newPatient(page);
    await api(page, 'POST', `/api/patients/${patient.id}/allergies`, {
      substance: { kind: 'text', name: 'A very long free-text substance name that a nurse typed without spaces: Chlorhexidinegluconatesolution' },
      category: 'environment',
      reactions: ['Contact dermatitis', 'Blistering'],
      criticality: 'high',
    });
    await signInAs(page, 'nurse', { landOn: `/patients` });
    await page
      .getByPlaceholder(/Search patients/)
      .last()
      .fill(patient.name);
    await page.getByRole('link', { name: `Chart of ${patient.name}` }).click();
    await page.getByTestId('allergy-section').waitFor();
    await page.getByRole('heading', { name: 'Chart', level: 1 }).waitFor();
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Add allergy' }).click();
    await page.getByTestId('allergy-dialog').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('the notes from the previous record', () => {
  it("are kept as written, and each item they list opens its list's form with it typed, to code it from the catalogue", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    // A client that sends the spec's patient payload, free text included, still succeeds.
    const marker = uniqueWord();
    const { status } = await api<{ id: string }>(page, 'POST', '/api/patients', {
      firstName: 'Prev',
      lastName: uniqueWord(),
      allergies: `Penicillin; latex; ${marker} dust`,
      medicalHistory: 'Hypertension',
      currentMedications: 'Lisinopril 10 mg daily',
    });
    expect(status).toBe(201);
    // Found across the clinic by a word of the note, and her chart opened from there.
    await signInAs(page, 'nurse', { landOn: '/chart' });
    await page.getByLabel('Search the notes').fill(marker.toUpperCase());
    const match = page.getByTestId('previous-record-match');
    await expect.poll(() => match.count()).toBe(1);
    expect(await match.locator('mark').textContent()).toBe(marker);
    await match.getByRole('link', { name: /Open chart/ }).click();
    const notes = page.getByTestId('previous-record');
    await notes.getByText(`Penicillin; latex; ${marker} dust`).waitFor();
    await notes.getByRole('button', { name: 'Record as an allergy: latex' }).click();
    const dialog = page.getByTestId('allergy-dialog');
    expect(await dialog.getByRole('combobox', { name: /Substance/ }).inputValue()).toBe('latex');
    await dialog.getByRole('option', { name: /^Latex\b/ }).click();
    await dialog.getByRole('button', { name: 'Add Allergy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rows(page).filter({ hasText: 'Latex' }).waitFor();
    // The note stays as written.
    await notes.getByText(`Penicillin; latex; ${marker} dust`).waitFor();
  });
});

describe('the formulary and the condition codes (Admin Panel)', () => {
  it('an admin adds a medication, named from its parts, retires it out of the pickers, and adds a condition code; the tab fits 375 px', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/admin?tab=formulary' });
    const ingredient = `${uniqueWord()}mycin`;
    await page.getByRole('button', { name: 'Add Medication' }).click();
    const dialog = page.getByTestId('formulary-item-dialog');
    await dialog.getByLabel('Ingredients').fill(ingredient);
    await dialog.getByLabel('Strength').fill('250 mg');
    await dialog.getByLabel('Dose form').fill('tablet');
    await dialog.getByLabel('Route').selectOption('oral');
    await dialog.getByLabel('ATC code').fill('J1');
    const name = `${ingredient[0]!.toUpperCase()}${ingredient.slice(1)} 250 mg tablet`;
    await expect.poll(() => dialog.getByTestId('formulary-item-name').textContent()).toBe(`Listed as ${name}`);
    await dialog.getByRole('button', { name: 'Add Medication' }).click();
    await dialog.getByText('An ATC code looks like J01CA04').waitFor();
    await dialog.getByLabel('ATC code').fill('j01xx99');
    await dialog.getByRole('button', { name: 'Add Medication' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toastText(page, 'Medication added').waitFor();

    await page.getByLabel('Search medications').fill(ingredient);
    const row = page.getByTestId('catalogue-row').filter({ hasText: name });
    await row.getByText('Clinic’s own').waitFor();
    await row.getByText('ATC J01XX99').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await row.getByRole('button', { name: /Edit/ }).click();
    await dialog.getByLabel(/Offered/).uncheck();
    await dialog.getByRole('button', { name: 'Save Medication' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('formulary-empty').waitFor();
    await page.getByLabel('Show').selectOption('retired');
    await row.getByText('Retired', { exact: true }).waitFor();
    const { json: offered } = await api<unknown[]>(page, 'GET', `/api/chart/formulary?q=${ingredient}`);
    expect(offered).toEqual([]);

    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    await page.getByLabel('Show').selectOption('active');
    const code = `Q8${Math.floor(Math.random() * 10)}.${Math.floor(1000 + Math.random() * 9000)}`;
    await page.getByRole('button', { name: 'Add Code' }).click();
    const codeDialog = page.getByTestId('condition-code-dialog');
    await codeDialog.getByRole('textbox', { name: /^Code/ }).fill(code.toLowerCase());
    await codeDialog.getByLabel('Title').fill(`Test condition ${ingredient}`);
    await codeDialog.getByRole('button', { name: 'Add Code' }).click();
    await codeDialog.waitFor({ state: 'detached' });
    await page.getByLabel('Search conditions').fill(code);
    await page
      .getByTestId('catalogue-row')
      .filter({ hasText: `${code} Test condition ${ingredient}` })
      .waitFor();

    const mobile = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(mobile, 'admin', { landOn: '/admin?tab=formulary' });
    await mobile.getByTestId('formulary-list').waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
