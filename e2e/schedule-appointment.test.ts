import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, zonedDate } from '#domain/clinic-time';
import { clinicInstant } from '#domain/clinic-time';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';

// The clinic is in Auckland and the browsers below are in New York or UTC: the form must read the
// date and time it is given as the clinic's wall clock, not the browser's. The server reads
// CLINIC_TIME_ZONE from the environment it is started with (helpers/server.ts passes it on).
const CLINIC_TIME_ZONE = 'Pacific/Auckland';
process.env.CLINIC_TIME_ZONE = CLINIC_TIME_ZONE;
const { useE2E } = await import('./helpers/suite.ts');
const e2e = useE2E();

interface TApiAppointment {
  id: string;
  patientId: string;
  appointmentDate: string;
  duration: number;
  roomNumber: string | null;
  assignedNurseId: string | null;
  assignedScribeId: string | null;
}

const clinicToday = () => zonedDate(new Date(), CLINIC_TIME_ZONE);

async function newPatient(page: Page): Promise<{ id: string; name: string; word: string }> {
  const word = uniqueWord();
  const { status, json } = await api<{ id: string }>(page, 'POST', '/api/patients', { firstName: 'Sched', lastName: word });
  expect(status).toBe(201);
  return { id: json.id, name: `Sched ${word}`, word };
}

async function bookViaApi(page: Page, fields: Record<string, unknown>): Promise<TApiAppointment> {
  const patient = await newPatient(page);
  const { status, json } = await api<TApiAppointment>(page, 'POST', '/api/appointments', { patientId: patient.id, duration: 30, ...fields });
  expect(status, JSON.stringify(json)).toBe(201);
  return json;
}

async function openForm(page: Page, account: 'scheduler' | 'admin' = 'scheduler'): Promise<void> {
  await signInAs(page, account, { landOn: '/schedule-appointment' });
  await page.getByRole('heading', { name: 'Schedule New Appointment', level: 1 }).waitFor();
  await page.getByRole('form', { name: 'New appointment' }).waitFor();
}

async function choosePatient(page: Page, patient: { name: string; word: string }): Promise<void> {
  await page.getByRole('combobox', { name: 'Patient' }).fill(patient.word);
  await page.getByRole('option', { name: new RegExp(patient.name) }).click();
  await page.getByTestId('chosen-patient').filter({ hasText: patient.name }).waitFor();
}

const conflicts = (page: Page) => page.getByTestId('appointment-conflict');
const submit = (page: Page) => page.getByRole('button', { name: 'Schedule Appointment', exact: true }).click();

describe('schedule appointment', () => {
  it("shows a clash as it is picked, clears it when the time changes, then books in the clinic's zone and lists it", async () => {
    const page = await e2e.newPage({ timezoneId: 'America/New_York' });
    await signInAs(page, 'scheduler');
    const tomorrow = addDays(clinicToday(), 1);
    const room = `R-${uniqueWord()}`;
    const blocker = await bookViaApi(page, { appointmentDate: clinicInstant(tomorrow, '10:00', CLINIC_TIME_ZONE), roomNumber: room });
    const patient = await newPatient(page);
    const { json: nurses } = await api<{ id: string; firstName: string }[]>(page, 'GET', '/api/scheduler/staff?role=nurse');
    const { json: scribes } = await api<{ id: string; firstName: string }[]>(page, 'GET', '/api/scheduler/staff?role=scribe');

    await openForm(page);
    await choosePatient(page, patient);
    await page.getByLabel('Date').fill(tomorrow);
    await page.getByLabel('Time').fill('10:00');
    await page.getByLabel('Room').fill(room);

    // The same room at the same time: listed by kind and time.
    await conflicts(page).first().waitFor();
    expect(await conflicts(page).count()).toBe(1);
    expect(await conflicts(page).first().getAttribute('data-kind')).toBe('room');
    expect(await conflicts(page).first().innerText()).toContain(`Room ${room} is already booked`);
    expect(await conflicts(page).first().innerText()).toContain('10:00 AM – 10:30 AM');
    expect(blocker.roomNumber).toBe(room);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Back-to-back is fine.
    await page.getByLabel('Time').fill('10:30');
    await page.getByTestId('no-conflicts').waitFor();
    expect(await conflicts(page).count()).toBe(0);

    await page.getByLabel('Nurse').selectOption({ label: 'Nora Bennett' });
    await page.getByLabel('Scribe').selectOption({ label: 'Sara Lopez' });
    await page.getByLabel('Duration').selectOption('45');
    await page.getByLabel('Appointment type').selectOption({ label: 'Follow-up' });
    await page.getByLabel('Reason for visit').fill('Blood pressure check');
    await page.getByTestId('no-conflicts').waitFor();

    const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/appointments');
    await submit(page);
    await toastText(page, 'Appointment scheduled successfully with staff assignments').waitFor();
    await page.waitForURL('/appointments');
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    // Spec section 7's payload, the staff as ids, the time as the clinic's 10:30.
    expect(body).toMatchObject({ patientId: patient.id, duration: 45, appointmentType: 'follow_up', status: 'scheduled', roomNumber: room });
    expect(body.appointmentDate).toBe(clinicInstant(tomorrow, '10:30', CLINIC_TIME_ZONE));
    expect(body.appointmentDate).not.toBe(clinicInstant(tomorrow, '10:30', 'America/New_York'));

    const { json: saved } = await api<TApiAppointment[]>(page, 'GET', `/api/appointments?patientId=${patient.id}`);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      appointmentDate: clinicInstant(tomorrow, '10:30', CLINIC_TIME_ZONE),
      duration: 45,
      roomNumber: room,
      assignedNurseId: nurses.find((n) => n.firstName === 'Nora')!.id,
      assignedScribeId: scribes.find((s) => s.firstName === 'Sara')!.id,
    });

    // Listed among the upcoming ones, at the clinic's time.
    await page.getByRole('tab', { name: 'All' }).click();
    const listed = page.locator(`[data-testid="appointment-row"][data-appointment-id="${saved[0]!.id}"]`);
    await listed.waitFor();
    expect(await listed.getByTestId('appointment-patient').innerText()).toBe(patient.name);
    expect(await listed.getByTestId('appointment-time').innerText()).toBe('10:30 AM');
  });

  it('keeps the submit possible and lists the clashes when the server refuses a booking made meanwhile', async () => {
    const { page } = e2e;
    await signInAs(page, 'scheduler');
    const day = addDays(clinicToday(), 2);
    const room = `R-${uniqueWord()}`;
    const patient = await newPatient(page);
    await openForm(page);
    await choosePatient(page, patient);
    await page.getByLabel('Date').fill(day);
    await page.getByLabel('Time').fill('14:00');
    await page.getByLabel('Room').fill(room);
    await page.getByTestId('no-conflicts').waitFor();

    // Another scheduler takes the room first.
    await bookViaApi(page, { appointmentDate: clinicInstant(day, '14:15', CLINIC_TIME_ZONE), roomNumber: room });
    await submit(page);
    await toastText(page, 'Failed to schedule appointment').waitFor();
    await page.getByText('Not saved: this time clashes').waitFor();
    expect(await conflicts(page).first().getAttribute('data-kind')).toBe('room');
    expect(await conflicts(page).first().innerText()).toContain('2:15 PM – 2:45 PM');
    expect(new URL(page.url()).pathname).toBe('/schedule-appointment');
  });

  it("says 'Please fill in all required fields' when patient, date or time is missing, and sends nothing", async () => {
    const { page } = e2e;
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/appointments') posts.push(request.url());
    });
    await openForm(page);
    await submit(page);
    await page.getByTestId('required-message').waitFor();
    expect(await page.getByTestId('required-message').innerText()).toBe('Please fill in all required fields');
    await toastText(page, 'Please fill in all required fields').waitFor();
    for (const field of ['patient', 'date', 'time']) expect(await page.getByTestId(`${field}-error`).innerText()).toBe('Required');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Date and time alone are not enough either.
    await page.getByLabel('Date').fill(addDays(clinicToday(), 1));
    await page.getByLabel('Time').fill('09:00');
    await submit(page);
    await page.getByTestId('patient-error').waitFor();
    expect(await page.getByTestId('required-message').isVisible()).toBe(true);
    expect(posts).toEqual([]);
  });

  it("offers the spec's choices: date from today, durations, types, nurses and scribes with the none choice", async () => {
    const { page } = e2e;
    const staffCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/scheduler/staff' || path === '/api/admin/users') staffCalls.push(path);
    });
    await openForm(page);
    for (const section of ['Patient Information', 'Appointment Scheduling', 'Staff Assignment', 'Additional Information']) {
      expect(await page.getByRole('group', { name: section }).count(), section).toBe(1);
    }
    expect(await page.getByLabel('Date').getAttribute('min')).toBe(clinicToday());
    const options = (label: string) => page.getByLabel(label).locator('option').allInnerTexts();
    expect(await options('Duration')).toEqual(['15 minutes', '30 minutes', '45 minutes', '60 minutes', '90 minutes', '120 minutes']);
    expect(await page.getByLabel('Duration').inputValue()).toBe('30');
    expect(await options('Appointment type')).toEqual(['General (no type)', 'Consultation', 'Follow-up', 'Urgent care', 'Physical exam', 'Lab review']);
    await expect.poll(() => options('Nurse')).toEqual(['No nurse assigned', 'Nora Bennett', 'Noah Kim']);
    await expect.poll(() => options('Scribe')).toEqual(['No scribe assigned', 'Sara Lopez']);
    expect(await page.getByTestId('staff-note').innerText()).toContain("see the patient's name");
    expect(await page.getByTestId('staff-note').innerText()).toContain('notification to provide notes after the appointment');
    // A scheduler loads staff from the scheduler's endpoint.
    expect(new Set(staffCalls)).toEqual(new Set(['/api/scheduler/staff']));

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('/appointments');
  });

  it("loads an admin's staff from the admin users list, and Back returns to Appointments", async () => {
    const { page } = e2e;
    const staffCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/scheduler/staff' || path === '/api/admin/users') staffCalls.push(path);
    });
    await openForm(page, 'admin');
    await expect.poll(() => page.getByLabel('Nurse').locator('option').allInnerTexts()).toEqual(['No nurse assigned', 'Nora Bennett', 'Noah Kim']);
    expect(new Set(staffCalls)).toEqual(new Set(['/api/admin/users']));
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL('/appointments');
  });

  it("shows a nurse 'Access Denied' with a way back to Appointments", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse', { landOn: '/schedule-appointment' });
    await page.getByRole('heading', { name: 'Access Denied', level: 1 }).waitFor();
    expect(await page.getByText('Only schedulers and admins can schedule appointments.').isVisible()).toBe(true);
    expect(await page.getByRole('form', { name: 'New appointment' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to Appointments' }).click();
    await page.waitForURL('/appointments');
  });

  it('leads a supplier, who has no appointments either, back to the dashboard (issue 29)', async () => {
    const { page } = e2e;
    await signInAs(page, 'supplier', { landOn: '/schedule-appointment' });
    await page.getByRole('heading', { name: 'Access Denied', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Appointments' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL('/');
    await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  });

  it('fits 375 px without sideways scrolling', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openForm(page);
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
