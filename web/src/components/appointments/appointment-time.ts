import { addDays, zonedDate } from '#domain/clinic-time';

/**
 * Appointment times in the clinic's time zone (domain/clinic-time.ts; the zone comes from
 * GET /api/clinic, useClinicTimeZone), whatever the browser's zone is.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, kind: 'time' | 'date' | 'day' | 'longDate' | 'weekday' | 'month' | 'parts'): Intl.DateTimeFormat {
  const key = `${kind}:${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      time: { hour: 'numeric', minute: '2-digit' },
      date: { month: 'short', day: 'numeric', year: 'numeric' },
      day: { month: 'short', day: 'numeric' },
      longDate: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
      weekday: { weekday: 'short', month: 'short', day: 'numeric' },
      month: { month: 'long', year: 'numeric' },
      parts: { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    }[kind] as Intl.DateTimeFormatOptions;
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formatters.set(key, f);
  }
  return f;
}

/** '9:30 AM' */
export const formatTime = (instant: string, timeZone: string) => formatter(timeZone, 'time').format(new Date(instant));
/** 'Mar 4, 2031' */
export const formatDate = (instant: string, timeZone: string) => formatter(timeZone, 'date').format(new Date(instant));
/** 'Wednesday, March 4, 2026': the dashboard's today. */
export const formatLongDate = (instant: string, timeZone: string) => formatter(timeZone, 'longDate').format(new Date(instant));
/** 'Mar 4, 9:30 AM', with plain spaces (the chat's 'MMM d, h:mm a', spec section 9). */
export const formatDayTime = (instant: string, timeZone: string) =>
  `${formatter(timeZone, 'day').format(new Date(instant))}, ${formatTime(instant, timeZone)}`.replace(/\s/g, ' ');
/** '9:30 AM – 10:00 AM' */
export const formatTimeRange = (start: string, end: string, timeZone: string) => `${formatTime(start, timeZone)} – ${formatTime(end, timeZone)}`;

/** The clinic day (YYYY-MM-DD) an instant falls on. */
export const clinicDayOf = (instant: string, timeZone: string) => zonedDate(new Date(instant), timeZone);
/** The clinic's today (YYYY-MM-DD), by this browser's clock. */
export const clinicToday = (timeZone: string) => zonedDate(new Date(), timeZone);

/** A calendar date (YYYY-MM-DD) as UTC midnight, for weekday and month arithmetic that no zone moves. */
const utcDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
/** 'Tue, Mar 4' for a calendar date. */
export const formatDay = (date: string) => formatter('UTC', 'weekday').format(utcDay(date));
/** 'Tuesday, March 4, 2031' for a calendar date. */
export const formatLongDay = (date: string) =>
  utcDay(date).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
/** 'March 2031' for a month ('2031-03'). */
export const formatMonth = (month: string) => formatter('UTC', 'month').format(utcDay(`${month}-01`));
/** 0 (Sunday) to 6 for a calendar date. */
export const weekdayOf = (date: string) => utcDay(date).getUTCDay();

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetMs(instant: number, timeZone: string): number {
  const parts = formatter(timeZone, 'parts').formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a clinic wall-clock time names: a date (YYYY-MM-DD) and a time (HH:MM) read in the
 * clinic's zone, not the browser's, as an ISO timestamp. A time that a daylight-saving change
 * skips lands just after the change; one it repeats means its first occurrence.
 */
export function clinicInstant(date: string, time: string, timeZone: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let instant = wall - offsetMs(wall, timeZone);
  instant = wall - offsetMs(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The clinic wall-clock date and time (HH:MM) of an instant: what a reschedule form starts from. */
export function clinicWallClock(instant: string, timeZone: string): { date: string; time: string } {
  const parts = formatter(timeZone, 'parts').formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: clinicDayOf(instant, timeZone), time: `${String(Number(get('hour')) % 24).padStart(2, '0')}:${get('minute').padStart(2, '0')}` };
}

/**
 * The days a Sunday-first month grid shows for a month ('2031-03'): from the Sunday on or before
 * the 1st to the Saturday on or after the last day, whole weeks (35 or 42 days, 28 in a rare February).
 */
export function monthGrid(month: string): string[] {
  const first = `${month}-01`;
  const start = addDays(first, -weekdayOf(first));
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const end = addDays(last, 6 - weekdayOf(last));
  const days: string[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The month ('YYYY-MM') some months after another. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 7);
}
