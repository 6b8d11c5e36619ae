import { APPOINTMENT_TYPES, type TAppointmentStatus } from '#domain/appointments';
import { addDays, zonedDate, zonedWallTime } from '#domain/clinic-time';
import type { Tx } from '../db/database.ts';
import { appointments } from '../db/schema/clinical.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The clinic's demo rooms, as Settings lists them (docs/decisions/demo-clinic.md). */
export const DEMO_ROOMS = ['100', '101', '102', '103'];
/** The weekday slots of a past day, and the room each is in. */
const SLOTS: [clock: string, minutes: number, room: string][] = [
  ['09:00', 30, '100'],
  ['09:30', 45, '101'],
  ['10:30', 30, '102'],
  ['11:00', 60, '103'],
  ['14:00', 30, '100'],
  ['15:30', 30, '101'],
];

/**
 * Four weeks of the clinic's past visits (issue 34), so the Reports and Analytics screens show a
 * month of work: weekdays from 27 days ago to 3 days ago (the days the rest of the demo uses are
 * left alone), six visits a day in the four rooms, most completed, about one in fourteen a no-show,
 * and cancellations with the time they were made (some less than a day before). Their notes
 * reminders count as sent, so the notes job does not wake the nurses for a month of visits.
 */
export async function seedDemoHistory(
  tx: Tx,
  people: { patients: { id: string }[]; scheduler: string; nurse: string; nurse2: string; scribe: string },
  now: Date,
  timeZone: string,
  opened: Date,
) {
  const today = zonedDate(now, timeZone);
  const rows: (typeof appointments.$inferInsert)[] = [];
  let k = 0;
  for (let back = 27; back >= 3; back--) {
    const day = addDays(today, -back);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (const [clock, minutes, room] of SLOTS) {
      k++;
      const start = zonedWallTime(day, clock, timeZone);
      const end = new Date(start.getTime() + minutes * MINUTE);
      const outcome: TAppointmentStatus = k % 14 === 3 ? 'no_show' : k % 14 === 7 || k % 14 === 11 ? 'cancelled' : 'completed';
      const cancelledAt = outcome !== 'cancelled' ? null : k % 14 === 7 ? new Date(start.getTime() - 6 * HOUR) : new Date(start.getTime() - 2 * 24 * HOUR);
      const completedAt = outcome === 'completed' ? new Date(end.getTime() + (k % 3) * 10 * MINUTE) : null;
      rows.push({
        patientId: people.patients[k % people.patients.length]!.id,
        providerId: people.scheduler,
        appointmentDate: start,
        duration: minutes,
        appointmentType: APPOINTMENT_TYPES[k % APPOINTMENT_TYPES.length],
        status: outcome,
        statusReason: outcome === 'cancelled' ? 'Patient called to cancel' : null,
        roomNumber: room,
        reason: 'Routine visit',
        assignedNurseId: k % 2 === 0 ? people.nurse : people.nurse2,
        assignedScribeId: people.scribe,
        checkedInAt: outcome === 'completed' ? new Date(start.getTime() - 5 * MINUTE) : null,
        completedAt,
        cancelledAt,
        notesReminderSentAt: completedAt ? new Date(completedAt.getTime() + HOUR) : null,
        createdAt: opened,
        updatedAt: completedAt ?? cancelledAt ?? end,
      });
    }
  }
  await tx.insert(appointments).values(rows);
}
