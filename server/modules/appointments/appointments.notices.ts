import { formatZonedDateTime } from '#domain/clinic-time';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { notify, resolveNotices } from '../notifications/notifications.service.ts';
import { visitsAwaitingNotesFrom } from './appointments.queries.ts';

/**
 * What staff are told about appointments, and in which words. Every notice names the
 * appointment by its time in the clinic's time zone; the patient's name goes only to people
 * allowed to see it on that appointment (its assigned nurse and scribe, the schedulers).
 * Notification types (docs/decisions/appointments.md): `notes_pending` for an assignment and for
 * missing notes, `visitation_expired` for a visit that never happened.
 */

export type TStaffRole = 'nurse' | 'scribe';

export interface TAppointmentNotice {
  appointmentId: string;
  patientName: string;
  start: Date;
  roomNumber: string | null;
  timeZone: string;
}

const where = (n: TAppointmentNotice) => `${formatZonedDateTime(n.start, n.timeZone)}${n.roomNumber ? `, room ${n.roomNumber}` : ''}`;

/** A nurse or scribe was put on an appointment: they will owe its notes. */
export function noticeAssigned(tx: Queryable, raise: Raise, userId: string, as: TStaffRole, n: TAppointmentNotice) {
  return notify(tx, raise, {
    userId,
    type: 'notes_pending',
    entityId: n.appointmentId,
    title: 'Assigned to an appointment',
    message: `You are the ${as} for ${n.patientName}'s appointment on ${where(n)}. Please provide notes for this visit after the appointment.`,
  });
}

/** An appointment a nurse or scribe stays on moved to another time or room. */
export function noticeRescheduled(tx: Queryable, raise: Raise, userId: string, as: TStaffRole, n: TAppointmentNotice) {
  return notify(tx, raise, {
    userId,
    type: 'notes_pending',
    entityId: n.appointmentId,
    title: 'Appointment rescheduled',
    message: `${n.patientName}'s appointment, for which you are the ${as}, is now on ${where(n)}. Please provide notes for this visit after the appointment.`,
  });
}

/** check-missing-notes: a completed visit has no note from its nurse. */
export function noticeNotesMissing(tx: Queryable, raise: Raise, userId: string, n: TAppointmentNotice) {
  return notify(tx, raise, {
    userId,
    type: 'notes_pending',
    entityId: n.appointmentId,
    title: 'Notes missing for a completed visit',
    message: `${n.patientName}'s visit on ${where(n)} is completed, but its nurse has written no note for it yet. Please provide the notes.`,
  });
}

/**
 * What resolves an appointment's notices (issue 29: a notice stays only while it asks something
 * that is still to do):
 * - any move or reschedule answers 'time passed without a check-in' (it was checked in after
 *   all, marked a no-show, cancelled or moved), for every scheduler told;
 * - a cancellation or a no-show ends every notice about it: nobody owes notes for a visit that
 *   did not happen;
 * - staff taken off it, or told anew of its new time, no longer need the notices they had;
 * - its nurse writing a note for the patient once the visit began (what check-missing-notes
 *   looks for) answers 'provide notes' and 'notes missing', for her and its scribe.
 */
export async function resolveOnMove(tx: Queryable, raise: Raise, appointmentId: string, to: string | null): Promise<void> {
  const ended = to === 'cancelled' || to === 'no_show';
  await resolveNotices(tx, raise, { entityIds: [appointmentId], types: ended ? ['visitation_expired', 'notes_pending'] : ['visitation_expired'] });
}

export const resolveStaffNotices = (tx: Queryable, raise: Raise, appointmentId: string, userIds: readonly string[]) =>
  resolveNotices(tx, raise, { entityIds: [appointmentId], types: ['notes_pending'], userIds });

/** A note by `authorId` for `patientId` was written at `at`: the visits it was owed for are answered. */
export async function resolveNotesOwed(tx: Queryable, raise: Raise, note: { patientId: string; authorId: string; at: Date }): Promise<void> {
  const visits = await visitsAwaitingNotesFrom(tx, note);
  if (visits.length > 0) await resolveNotices(tx, raise, { entityIds: visits, types: ['notes_pending'] });
}

/** check-missing-notes: an appointment's time passed with nobody checked in. */
export function noticeVisitMissed(tx: Queryable, raise: Raise, userId: string, n: TAppointmentNotice) {
  return notify(tx, raise, {
    userId,
    type: 'visitation_expired',
    entityId: n.appointmentId,
    title: 'Appointment time passed without a check-in',
    message: `${n.patientName}'s appointment on ${where(n)} has passed and the patient was never checked in. Mark it as a no-show, or reschedule it.`,
  });
}
