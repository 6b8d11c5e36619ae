import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TAppointment } from '#domain/appointments';
import { startOfZonedDay, zonedDate } from '#domain/clinic-time';
import { AppointmentActions } from '../../web/src/pages/appointments/appointment-actions.tsx';
import { NURSE, PATIENT_ID, SCHEDULER } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// A visit's buttons follow its time (domain/visit-timing.ts; issue 29): the real clock, and visits
// placed around it. New York clinic.
const TIME_ZONE = 'America/New_York';
const HOUR = 3_600_000;

/** A moment already past on the clinic's today, whatever the hour the test runs at. */
const begunToday = () => {
  const now = Date.now();
  return Math.max(startOfZonedDay(zonedDate(new Date(now), TIME_ZONE), TIME_ZONE).getTime(), now - 60_000) - now;
};

function visit(status: TAppointment['status'], startsInMs: number): TAppointment {
  const start = new Date(Date.now() + startsInMs);
  return {
    id: '00000000-0000-4000-8000-0000000000b1',
    patientId: PATIENT_ID,
    patientRef: 'a11c',
    providerId: SCHEDULER.id,
    appointmentDate: start.toISOString(),
    endsAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
    duration: 30,
    appointmentType: null,
    status,
    reason: null,
    notes: null,
    roomNumber: null,
    assignedNurseId: null,
    assignedScribeId: null,
    checkedInAt: null,
    completedAt: null,
    statusReason: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000000Z',
    patientName: 'Olivia Hart',
    assignedNurseName: null,
    assignedScribeName: null,
    prescriptionCount: 0,
  };
}

const buttons = () => screen.queryAllByRole('button').map((b) => b.textContent?.split(':')[0]);

describe("a visit's buttons", () => {
  it('offer no Check In, and no No-show, on a visit two days ahead; Cancel and Reschedule stay', () => {
    renderApp(<AppointmentActions appointment={visit('scheduled', 48 * HOUR)} user={SCHEDULER} timeZone={TIME_ZONE} showNotes={false} />);
    expect(buttons()).toEqual(['Cancel', 'Reschedule']);
  });

  it('offer Check In, and No-show, on a visit whose time has come', () => {
    renderApp(<AppointmentActions appointment={visit('scheduled', begunToday())} user={SCHEDULER} timeZone={TIME_ZONE} showNotes={false} />);
    expect(buttons()).toEqual(['Check In', 'Cancel', 'No-show', 'Reschedule']);
  });

  it('say when a visit under way before its booked time can be completed, instead of a Complete button', () => {
    // Two days ahead is never today, whatever the hour the test runs; what matters here is "before its start".
    const early = visit('in_progress', 48 * HOUR);
    renderApp(<AppointmentActions appointment={early} user={NURSE} timeZone={TIME_ZONE} showNotes={false} />);
    expect(buttons()).toEqual([]);
    expect(screen.getByTestId('complete-from').textContent).toMatch(/^Complete from \d{1,2}:\d{2} [AP]M$/);
  });

  it('offer Complete once the visit has begun', () => {
    renderApp(<AppointmentActions appointment={visit('in_progress', begunToday())} user={NURSE} timeZone={TIME_ZONE} showNotes={false} />);
    expect(buttons()).toEqual(['Complete']);
    expect(screen.queryByTestId('complete-from')).toBeNull();
  });
});
