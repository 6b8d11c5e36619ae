import { sql, type SQL } from 'drizzle-orm';
import { addDays } from '#domain/clinic-time';
import type { TReportCell, TReportColumn, TReportFilter, TReportGrouping, TReportId, TReportMetric } from '#domain/reports';
import type { TOpeningHours } from '#domain/settings';
import type { Queryable } from '../../db/database.ts';

/** What one run of a report reads: the range as clinic days and as instants, the filters, the settings. */
export interface TReportRun {
  q: Queryable;
  /** Clinic days, both inclusive. */
  from: string;
  to: string;
  /** [start, end): the first day's midnight to the midnight after the last, in the clinic's zone. */
  start: Date;
  end: Date;
  timeZone: string;
  providerId: string | null;
  appointmentType: string | null;
  groupBy: TReportGrouping;
  schedule: { openingHours: TOpeningHours; rooms: string[]; lateCancelHours: number };
  now: Date;
}

/** What a report answers: its figures as one table, its headline figures, and what to say beside them. */
export interface TReportTable {
  metrics: TReportMetric[];
  columns: TReportColumn[];
  rows: Record<string, TReportCell>[];
  chart: { series: string[] };
  caveats: string[];
}

export interface TReportDefinition {
  id: TReportId;
  filters: TReportFilter[];
  /** The first is the default. */
  groupings: TReportGrouping[];
  run(run: TReportRun): Promise<TReportTable>;
  /**
   * The records the figures count, one CSV line each, read in batches as the client takes them
   * (so a year of a network's visits streams in flat memory). Named by nothing a patient could
   * be found by: no name, no id, no reason.
   */
  records?: { columns: readonly string[]; batches(run: TReportRun): AsyncGenerator<TReportCell[][]> };
}

/** One decimal, as every rate and duration is shown: rounded once, here, so the screen, CSV and PDF agree. */
export const round1 = (n: number | null): number | null => (n === null || !Number.isFinite(n) ? null : Math.round(n * 10) / 10);
export const percentOf = (part: number, whole: number): number | null => (whole === 0 ? null : round1((100 * part) / whole));
export const hoursOf = (seconds: number | null): number | null => (seconds === null ? null : round1(seconds / 3600));

/** A figure of a row: its column, with the definition shown beside it. */
export const column = (key: string, label: string, kind: TReportColumn['kind'], definition: string | null): TReportColumn => ({ key, label, kind, definition });
export const metric = (col: TReportColumn, value: TReportCell, label = col.label): TReportMetric => ({ ...col, label, value });

/** The Monday that starts the ISO week of a calendar date. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday .. 6 Saturday
  return addDays(date, -((weekday + 6) % 7));
}

/** Every calendar day from `from` to `to`, both inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** The Mondays of the weeks the range touches, in order: each week is a row even when nothing happened in it. */
export const weeksOf = (from: string, to: string): string[] => [...new Set(daysOf(from, to).map(mondayOf))];

/** A timestamp column's clinic day, as text: the day boundaries are the clinic's, DST included. */
export const clinicDay = (instant: SQL, timeZone: string): SQL => sql`to_char(${instant} at time zone ${timeZone}, 'YYYY-MM-DD')`;

/** The Monday of a timestamp column's clinic week, as text. */
export const clinicWeek = (instant: SQL, timeZone: string): SQL => sql`to_char(date_trunc('week', ${instant} at time zone ${timeZone}), 'YYYY-MM-DD')`;

/** `instant` within the run's range. */
export const inRange = (instant: SQL, run: Pick<TReportRun, 'start' | 'end'>): SQL =>
  sql`${instant} >= ${run.start.toISOString()}::timestamptz and ${instant} < ${run.end.toISOString()}::timestamptz`;

/** How many, and the median and 90th percentile of their seconds (linear interpolation), of the rows `where` picks. */
export interface TDurationFigures {
  count: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
}

/** TDurationFigures as one json aggregate, so one pass over the rows gives every stage. */
export const durationFigures = (seconds: SQL, where: SQL): SQL => sql`json_build_object(
  'count', (count(*) filter (where ${where}))::int,
  'medianSeconds', (percentile_cont(0.5) within group (order by ${seconds}) filter (where ${where}))::float8,
  'p90Seconds', (percentile_cont(0.9) within group (order by ${seconds}) filter (where ${where}))::float8)`;

/** Seconds from one instant to a later one. */
export const secondsBetween = (earlier: SQL, later: SQL): SQL => sql`extract(epoch from (${later} - ${earlier}))::float8`;
