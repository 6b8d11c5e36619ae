/**
 * Calendar days in the clinic's time zone. "Today" on the dashboard and the calendar's days
 * are the clinic's days, not the server's or UTC's; these helpers turn them into instants.
 */

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
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
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
