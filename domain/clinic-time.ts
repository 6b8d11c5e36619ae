/**
 * Time, the one way (issue 49): every date and time the app shows or reads is formatted here, on
 * the clinic's wall clock (its zone from the settings, GET /api/clinic on the web), never in the
 * server's or the browser's zone. ESLint forbids `toLocale*String` and `Intl.DateTimeFormat`
 * anywhere else. "Today" on the dashboard and the calendar's days are the clinic's days; these
 * helpers also turn them into instants.
 */

/** The zone of the machine or browser this runs on: only a default, before the clinic's is known. */
export const runtimeTimeZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Whether this engine knows a time zone by that name (in any letter case: settings are stricter, isTimeZoneName). */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Formatters by time zone and kind. Building an Intl.DateTimeFormat costs far more than using
 * one (it was 9% of a hot request's CPU), and a clinic uses one or two zones.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const KINDS = {
  // en-CA formats as YYYY-MM-DD.
  date: ['en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }],
  parts: ['en-US', { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }],
  day: ['en-US', { dateStyle: 'medium' }],
  minute: ['en-US', { dateStyle: 'medium', timeStyle: 'short' }],
  second: ['en-US', { dateStyle: 'medium', timeStyle: 'medium' }],
  time: ['en-US', { hour: 'numeric', minute: '2-digit' }],
  monthDayYear: ['en-US', { month: 'short', day: 'numeric', year: 'numeric' }],
  monthDay: ['en-US', { month: 'short', day: 'numeric' }],
  longDate: ['en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }],
  weekday: ['en-US', { weekday: 'short', month: 'short', day: 'numeric' }],
  month: ['en-US', { month: 'long', year: 'numeric' }],
  // A notice's time, with its zone named so that nobody reading it elsewhere guesses.
  zoned: ['en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }],
} as const satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;

function formatter(kind: keyof typeof KINDS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}:${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const [locale, options] = KINDS[kind];
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, f);
  }
  return f;
}

/**
 * An instant as people read it, on the clinic's wall clock whatever the browser's zone: its day
 * ('Mar 1, 2026'), to the minute ('Mar 1, 2026, 9:04 AM') or, where the order of events matters
 * (the audit trail), to the second. The one way every screen writes a date and time.
 */
export function formatClinicTime(instant: string | Date, timeZone: string, precision: 'day' | 'minute' | 'second' = 'minute'): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  return Number.isNaN(date.getTime()) ? '' : formatter(precision, timeZone).format(date);
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function zonedDate(instant: Date, timeZone: string): string {
  return formatter('date', timeZone).format(instant);
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetMs(instant: Date, timeZone: string): number {
  const parts = formatter('parts', timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  // Some engines write midnight as hour 24 even with h23.
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a calendar date begins in a time zone (midnight, or the first moment after a DST gap). */
export function startOfZonedDay(date: string, timeZone: string): Date {
  return zonedWallTime(date, '00:00', timeZone);
}

/** The instant a wall clock in a time zone reads `clock` (HH:MM) on a calendar date; in a DST gap, the moment after it. */
export function zonedWallTime(date: string, clock: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = clock.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let instant = wall - offsetMs(new Date(wall), timeZone);
  // The offset at the guess may differ from the offset at the true instant around DST changes.
  instant = wall - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** [start, end) of a clinic day as instants. */
export function zonedDayRange(date: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfZonedDay(date, timeZone), end: startOfZonedDay(addDays(date, 1), timeZone) };
}

/** '9:30 AM' */
export const formatTime = (instant: string | Date, timeZone: string) => formatter('time', timeZone).format(new Date(instant));
/** 'Mar 4, 2031' */
export const formatDate = (instant: string | Date, timeZone: string) => formatter('monthDayYear', timeZone).format(new Date(instant));
/** 'Mar 4' */
export const formatMonthDay = (instant: string | Date, timeZone: string) => formatter('monthDay', timeZone).format(new Date(instant));
/** 'Wednesday, March 4, 2026': the dashboard's today. */
export const formatLongDate = (instant: string | Date, timeZone: string) => formatter('longDate', timeZone).format(new Date(instant));
/** 'Mar 4, 9:30 AM', with plain spaces (the chat's 'MMM d, h:mm a', spec section 9). */
export const formatDayTime = (instant: string | Date, timeZone: string) =>
  `${formatMonthDay(instant, timeZone)}, ${formatTime(instant, timeZone)}`.replace(/\s/g, ' ');
/** '9:30 AM – 10:00 AM' */
export const formatTimeRange = (start: string, end: string, timeZone: string) => `${formatTime(start, timeZone)} – ${formatTime(end, timeZone)}`;
/** 'Mon, Mar 9, 2026, 10:30 AM EDT': a notice's time, its zone named. */
export const formatZonedDateTime = (instant: string | Date, timeZone: string) => formatter('zoned', timeZone).format(new Date(instant));

/** The clinic day (YYYY-MM-DD) an instant falls on. */
export const clinicDayOf = (instant: string, timeZone: string) => zonedDate(new Date(instant), timeZone);
/** The clinic's today (YYYY-MM-DD), by this machine's clock. */
export const clinicToday = (timeZone: string) => zonedDate(new Date(), timeZone);

/** A calendar date (YYYY-MM-DD) as UTC midnight, for weekday and month arithmetic that no zone moves. */
const utcDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
/** 'Tue, Mar 4' for a calendar date. */
export const formatDay = (date: string) => formatter('weekday', 'UTC').format(utcDay(date));
/** 'Tuesday, March 4, 2031' for a calendar date. */
export const formatLongDay = (date: string) => formatter('longDate', 'UTC').format(utcDay(date));
/** 'Mar 4' for a calendar date (a chart's axis). */
export const formatCalendarMonthDay = (date: string) => formatter('monthDay', 'UTC').format(utcDay(date));
/** 'Mar 4, 2031' for a calendar date (an expiry, a date of birth): a day, whatever the zone. */
export const formatCalendarDate = (date: string) => formatter('monthDayYear', 'UTC').format(utcDay(date));
/** 'March 2031' for a month ('2031-03'). */
export const formatMonth = (month: string) => formatter('month', 'UTC').format(utcDay(`${month}-01`));
/** 0 (Sunday) to 6 for a calendar date. */
export const weekdayOf = (date: string) => utcDay(date).getUTCDay();

/**
 * The instant a clinic wall-clock time names: a date (YYYY-MM-DD) and a time (HH:MM) read in the
 * clinic's zone, not the browser's, as an ISO timestamp. A time that a daylight-saving change
 * skips lands just after the change; one it repeats means its first occurrence.
 */
export const clinicInstant = (date: string, time: string, timeZone: string) => zonedWallTime(date, time, timeZone).toISOString();

/** The clinic wall-clock date and time (HH:MM) of an instant: what a reschedule form starts from. */
export function clinicWallClock(instant: string, timeZone: string): { date: string; time: string } {
  const parts = formatter('parts', timeZone).formatToParts(new Date(instant));
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
