import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TAppointment } from '#domain/appointments';
import { RescheduleDialog } from '../../web/src/pages/appointments/reschedule-dialog.tsx';
import { fakeApi, type TRoutes } from './helpers/fake-api.ts';
import { PATIENT_ID, SCHEDULER } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// The reschedule dialog, driven by the keyboard and mouse; only fetch is faked. New York clinic.

const TIME_ZONE = 'America/New_York';
const APPOINTMENT: TAppointment = {
  id: '00000000-0000-4000-8000-0000000000a1',
  patientId: PATIENT_ID,
  patientRef: 'a11c',
  providerId: SCHEDULER.id,
  // 9:30 in New York.
  appointmentDate: '2030-01-02T14:30:00.000Z',
  endsAt: '2030-01-02T15:00:00.000Z',
  duration: 30,
  appointmentType: null,
  status: 'scheduled',
  reason: null,
  notes: null,
  roomNumber: '101',
  assignedNurseId: null,
  assignedScribeId: null,
  checkedInAt: null,
  completedAt: null,
  statusReason: null,
  createdAt: '2029-12-01T10:00:00.000Z',
  updatedAt: '2029-12-01T10:00:00.123456Z',
  patientName: 'Olivia Hart',
  assignedNurseName: null,
  assignedScribeName: null,
  prescriptionCount: 0,
};
const READS: TRoutes = {
  'GET /api/appointments/conflicts': () => ({ status: 200, json: { conflicts: [] } }),
  'GET /api/scheduler/staff': () => ({ status: 200, json: [] }),
};

const open = () => renderApp(<RescheduleDialog appointment={APPOINTMENT} user={SCHEDULER} timeZone={TIME_ZONE} onClose={() => undefined} />);

describe('the reschedule dialog', () => {
  it('starts from the appointment in the clinic zone and sends only what changed, with its version', async () => {
    const api = fakeApi({ ...READS, [`PUT /api/appointments/${APPOINTMENT.id}`]: () => ({ status: 200, json: APPOINTMENT }) });
    const { user } = open();
    expect((screen.getByLabelText(/^Date/) as HTMLInputElement).value).toBe('2030-01-02');
    expect((screen.getByLabelText(/^Time/) as HTMLInputElement).value).toBe('09:30');
    // The room typed with a space around it is the same room: not a change.
    await user.type(screen.getByLabelText('Room'), ' ');
    await user.clear(screen.getByLabelText(/^Time/));
    await user.type(screen.getByLabelText(/^Time/), '11:00');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ appointmentDate: '2030-01-02T16:00:00.000Z', updatedAt: APPOINTMENT.updatedAt });
  });

  it('requires a date and a time, and sends nothing without them', async () => {
    const api = fakeApi(READS);
    const { user } = open();
    await user.clear(screen.getByLabelText(/^Time/));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByLabelText(/^Time/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Required')).toBeTruthy();
    expect(api.writes()).toEqual([]);
  });

  it("shows the server's error on the payload's appointmentDate under the date", async () => {
    const api = fakeApi({
      ...READS,
      [`PUT /api/appointments/${APPOINTMENT.id}`]: () => ({
        status: 400,
        json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'appointmentDate', message: 'Must be in the future' }] },
      }),
    });
    const { user } = open();
    await user.selectOptions(screen.getByLabelText('Duration'), '45');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByLabelText(/^Date/).getAttribute('aria-invalid')).toBe('true'));
    expect(api.writes()[0]!.body).toEqual({ duration: 45, updatedAt: APPOINTMENT.updatedAt });
    expect(within(screen.getByRole('dialog')).getByText('Must be in the future')).toBeTruthy();
    // Every error found its field: the dialog's own alert stays away (the toast gives the reason).
    expect(within(screen.getByRole('dialog')).queryByText('Validation failed')).toBeNull();
    await screen.findByText('Failed to update appointment');
    // The toast's reason is the field's, in words (issue 29): the text shows twice, under the field and in the toast.
    expect(screen.getAllByText('Must be in the future')).toHaveLength(2);
  });
});
