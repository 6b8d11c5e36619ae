import { addDays, startOfZonedDay, zonedDate } from '#domain/clinic-time';
import { APPOINTMENT_STATUSES, type TAppointmentStatus } from '#domain/appointments';
import { ANALYTICS_DAYS, TURNAROUND_WINDOW_DAYS, type TAnalytics, type TAppointmentDay } from '#domain/analytics';
import { NOTE_STATUSES } from '#domain/notes';
import type { Deps } from '../../deps.ts';
import { analyticsRows } from './analytics.queries.ts';

const DAY_MS = 86_400_000;

/**
 * The Analytics tab's figures (issue 20): the last ANALYTICS_DAYS clinic days of appointments
 * by status, every note by status, and how long notes take from submission to finalization.
 * Reading it is not audited: like the staff list it holds no patient data (counts only, no
 * name, id or text), and the audit trail is for who saw which patient and who changed what.
 */
export async function analyticsFor(deps: Deps): Promise<TAnalytics> {
  const timeZone = deps.settings.current().timeZone;
  const now = deps.config.now();
  const to = zonedDate(now, timeZone);
  const from = addDays(to, -(ANALYTICS_DAYS - 1));
  const rows = await analyticsRows(deps.db, {
    from: startOfZonedDay(from, timeZone),
    to: startOfZonedDay(addDays(to, 1), timeZone),
    timeZone,
    finalizedSince: new Date(now.getTime() - TURNAROUND_WINDOW_DAYS * DAY_MS),
  });

  const byDay = new Map<string, TAppointmentDay>();
  for (let i = 0; i < ANALYTICS_DAYS; i++) {
    const date = addDays(from, i);
    const counts = Object.fromEntries(APPOINTMENT_STATUSES.map((s) => [s, 0])) as Record<TAppointmentStatus, number>;
    byDay.set(date, { date, counts, total: 0 });
  }
  for (const { date, status, count } of rows.days) {
    const day = byDay.get(date);
    if (!day) continue;
    day.counts[status] += count;
    day.total += count;
  }

  const noteCounts = new Map(rows.notes.map((n) => [n.status, n.count]));
  return {
    timeZone,
    from,
    to,
    appointmentsPerDay: [...byDay.values()],
    notesByStatus: NOTE_STATUSES.map((status) => ({ status, count: noteCounts.get(status) ?? 0 })),
    turnaround: { windowDays: TURNAROUND_WINDOW_DAYS, ...rows.turnaround },
  };
}
