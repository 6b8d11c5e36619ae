import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScheduleForm } from '../../web/src/pages/schedule-appointment/schedule-form.tsx';
import { fakeApi, type TRoutes } from './helpers/fake-api.ts';
import { OLIVIA, PATIENT_ID, SCHEDULER } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// The schedule form as /schedule-appointment shows it, driven by the keyboard and mouse; only
// fetch is faked. The clinic is in New York, whatever the machine's zone.

const TIME_ZONE = 'America/New_York';

/** What the form reads while the user fills it: patients found, no clashes, no staff. */
const READS: TRoutes = {
  'GET /api/patients': () => ({ status: 200, json: [OLIVIA] }),
  'GET /api/appointments/conflicts': () => ({ status: 200, json: { conflicts: [] } }),
  'GET /api/scheduler/staff': () => ({ status: 200, json: [] }),
};

function openForm() {
  return renderApp(<ScheduleForm user={SCHEDULER} timeZone={TIME_ZONE} initialPatientId={null} />, { path: '/schedule-appointment' });
}

const errorOf = (testId: string) => screen.queryByTestId(`${testId}-error`)?.textContent ?? null;

/** Patient, date and time: what the form requires. */
async function fillRequired(user: ReturnType<typeof openForm>['user']) {
  await user.type(screen.getByRole('combobox', { name: /^Patient/ }), 'Oli');
  await user.click(await screen.findByTestId('patient-option'));
  await screen.findByTestId('patient-summary');
  await user.type(screen.getByLabelText(/^Date/), '2030-01-02');
  await user.type(screen.getByLabelText(/^Time/), '09:30');
}

describe('the schedule form', () => {
  it("says 'Please fill in all required fields', marks patient, date and time, and sends nothing", async () => {
    const api = fakeApi(READS);
    const { user } = openForm();
    await user.click(screen.getByRole('button', { name: 'Schedule Appointment' }));

    expect((await screen.findByTestId('required-message')).textContent).toBe('Please fill in all required fields');
    for (const field of ['patient', 'date', 'time']) expect(errorOf(field)).toBe('Required');
    expect(errorOf('roomNumber')).toBeNull();
    expect(screen.getByLabelText(/^Date/).getAttribute('aria-invalid')).toBe('true');
    // The destructive toast says it too.
    await screen.findByText('Error');
    expect(screen.getAllByText('Please fill in all required fields')).toHaveLength(2);
    expect(api.writes()).toEqual([]);

    // Filled in, the message and the errors go.
    await fillRequired(user);
    await waitFor(() => expect(screen.queryByTestId('required-message')).toBeNull());
    for (const field of ['patient', 'date', 'time']) expect(errorOf(field)).toBeNull();
  });

  it("books in the clinic's zone with what was filled in, then goes to Appointments", async () => {
    const api = fakeApi({
      ...READS,
      'POST /api/appointments': ({ body }) => ({ status: 201, json: { id: '00000000-0000-4000-8000-0000000000a1', ...(body as object) } }),
    });
    const { user, history } = openForm();
    await fillRequired(user);
    await user.selectOptions(screen.getByLabelText('Duration'), '45');
    await user.type(screen.getByLabelText('Room'), ' 101 ');
    await user.type(screen.getByLabelText('Reason for visit'), 'Knee pain');
    await screen.findByTestId('no-conflicts');
    await user.click(screen.getByRole('button', { name: 'Schedule Appointment' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'POST', path: '/api/appointments' });
    expect(api.writes()[0]!.body).toEqual({
      patientId: PATIENT_ID,
      providerId: SCHEDULER.id,
      // 9:30 in New York in January is 14:30 UTC.
      appointmentDate: '2030-01-02T14:30:00.000Z',
      duration: 45,
      appointmentType: null,
      reason: 'Knee pain',
      notes: null,
      roomNumber: '101',
      assignedNurseId: null,
      assignedScribeId: null,
      status: 'scheduled',
    });
    await waitFor(() => expect(history.at(-1)).toBe('/appointments'));
  });

  it("puts the server's 400 field errors under the fields the payload names, and stays on the form", async () => {
    const api = fakeApi({
      ...READS,
      'POST /api/appointments': () => ({
        status: 400,
        json: {
          message: 'Validation failed',
          code: 'validation.failed',
          errors: [
            { path: 'appointmentDate', message: 'Must be in the future' },
            { path: 'roomNumber', message: 'At most 20 characters' },
          ],
        },
      }),
    });
    const { user, history } = openForm();
    await fillRequired(user);
    await user.type(screen.getByLabelText('Room'), '101');
    await user.click(screen.getByRole('button', { name: 'Schedule Appointment' }));

    // appointmentDate is the form's date field.
    await waitFor(() => expect(errorOf('date')).toBe('Must be in the future'));
    expect(errorOf('roomNumber')).toBe('At most 20 characters');
    expect(errorOf('time')).toBeNull();
    expect(screen.queryByTestId('schedule-form-error')).toBeNull();
    await screen.findByText('Failed to schedule appointment');
    // The toast gives the reasons in words, not the bare 'Validation failed' (issue 29).
    expect(screen.getByText('Must be in the future; At most 20 characters')).toBeTruthy();
    expect(screen.queryByText('Validation failed')).toBeNull();
    expect(api.writes()).toHaveLength(1);
    expect(history.at(-1)).toBe('/schedule-appointment');
  });

  it("lists in the form's alert what no field of the form shows", async () => {
    fakeApi({
      ...READS,
      'POST /api/appointments': () => ({
        status: 400,
        json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'providerId', message: 'Not a provider' }] },
      }),
    });
    const { user } = openForm();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Schedule Appointment' }));

    const alert = await screen.findByTestId('schedule-form-error');
    expect(alert.textContent).toContain('Could not schedule');
    expect(alert.textContent).toContain('providerId: Not a provider');
  });
});
