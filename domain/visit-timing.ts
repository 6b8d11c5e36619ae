import { formatClinicTime, zonedDate, zonedDayRange } from './clinic-time.ts';

/**
 * When a visit's move may be made, measured against the visit's own time in the clinic's zone
 * (issue 29: a visit was checked in 33 hours early and completed eleven hours before it began).
 * The workflow table names each move's timing; the server refuses a move outside it (409
 * `appointment.notNow`) and the web does not offer it.
 * - `onVisitDay`: from the start of the visit's clinic day until that day ends (or the visit
 *   does, for one running past midnight). Check In and Start Visit: the patient is here today.
 * - `fromVisitStart`: once the visit's booked time has come. Complete, and No-show: a visit
 *   cannot end, or be missed, before it begins. A patient seen early is rescheduled to the time
 *   she was seen, so the record says when the visit happened.
 */
export type TVisitTiming = 'onVisitDay' | 'fromVisitStart';

export interface TVisitTime {
  appointmentDate: string | Date;
  duration: number;
}

/** Why the move cannot be made now, as a sentence for the user; null when it can. */
export function visitTimingRefusal(timing: TVisitTiming | undefined, visit: TVisitTime, now: Date, timeZone: string): string | null {
  if (!timing) return null;
  const start = new Date(visit.appointmentDate);
  if (timing === 'fromVisitStart') {
    return now < start ? `This visit starts at ${formatClinicTime(start, timeZone)}: it cannot be completed, or marked a no-show, before it begins.` : null;
  }
  const day = zonedDayRange(zonedDate(start, timeZone), timeZone);
  const end = Math.max(day.end.getTime(), start.getTime() + visit.duration * 60_000);
  if (now < day.start || now.getTime() >= end) {
    return `This visit is on ${formatClinicTime(start, timeZone, 'day')}: a visit is checked in and started on its own day.`;
  }
  return null;
}
