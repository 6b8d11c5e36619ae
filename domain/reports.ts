import { z } from 'zod';
import { APPOINTMENT_TYPES } from './appointments.ts';
import type { TCapability } from './permissions.ts';
import { ZDate } from './text.ts';

/**
 * Reports (issue 34; docs/decisions/reports.md). Each report is computed once, on the server,
 * as one table: the screen, its chart, the CSV and the PDF all render that table, so a figure
 * is the same wherever it appears. Figures are counts, durations and rates about the clinic's
 * work, never a patient's name, id or text.
 */
export const REPORT_IDS = ['no-shows', 'schedule-use', 'staff-activity', 'note-turnaround', 'lab-turnaround', 'supply'] as const;
export type TReportId = (typeof REPORT_IDS)[number];

/** How a report's rows may be grouped; each report lists the ones it offers, its default first. */
export const REPORT_GROUPINGS = ['week', 'day', 'provider', 'type', 'person', 'stage', 'priority', 'supplier'] as const;
export type TReportGrouping = (typeof REPORT_GROUPINGS)[number];

/** The filters a report may take beyond its date range. */
export const REPORT_FILTERS = ['provider', 'appointmentType'] as const;
export type TReportFilter = (typeof REPORT_FILTERS)[number];

/**
 * What 'provider' means in each report that takes one (issue 50): who booked the visit, who wrote
 * the note, who ordered the test. The filter lists only staff whose role can be that person, and
 * says so under it.
 */
export const REPORT_PROVIDERS: Partial<Record<TReportId, { capability: TCapability; help: string }>> = {
  'no-shows': { capability: 'appointments.schedule', help: 'Who booked the visit: schedulers and admins.' },
  'note-turnaround': { capability: 'notes.create', help: "The note's author: nurses and admins." },
  'lab-turnaround': { capability: 'labs.order', help: 'Who ordered the test: nurses and admins.' },
  'staff-activity': { capability: 'notes.read', help: 'Whose visits and notes are counted: clinical and front-desk staff.' },
};

/** An appointment with no type is shown as 'General' (spec); as a filter value it is 'general'. */
export const REPORT_APPOINTMENT_TYPES = [...APPOINTMENT_TYPES, 'general'] as const;

/** The longest range one report covers: a year and a month, so '12 months' always fits. */
export const REPORT_MAX_DAYS = 400;

/** A late cancellation is one made less than this many hours before the visit, unless Settings say otherwise. */
export const DEFAULT_LATE_CANCEL_HOURS = 24;

/** A stretch of an open room with no visit counts as an idle gap from this many minutes. */
export const IDLE_GAP_MINUTES = 30;

/** Lab results waiting for review longer than this are listed as old (issue 34). */
export const UNREVIEWED_RESULT_HOURS = 48;

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;

/** GET /api/reports/{id} (and its .csv and .pdf): clinic days, both inclusive, in the clinic's time zone. */
export const ZReportQuery = z
  .object({
    from: ZDate,
    to: ZDate,
    providerId: z.uuid('Must be a staff member id').optional(),
    appointmentType: z.enum(REPORT_APPOINTMENT_TYPES, `Choose one of ${REPORT_APPOINTMENT_TYPES.join(', ')}`).optional(),
    groupBy: z.enum(REPORT_GROUPINGS).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (!ZDate.safeParse(q.from).success || !ZDate.safeParse(q.to).success) return;
    const days = dayNumber(q.to) - dayNumber(q.from) + 1;
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after the start date' });
    else if (days > REPORT_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `At most ${REPORT_MAX_DAYS} days from the start date` });
  });
export type TReportQuery = z.infer<typeof ZReportQuery>;

export const ZReportParams = z.object({ id: z.enum(REPORT_IDS, 'No such report') });

/**
 * How a value is written: a count; a percent (0-100, one decimal); hours or minutes (one
 * decimal); a clinic day (YYYY-MM-DD); or text (a week's label, a name, a stage).
 */
export const REPORT_VALUE_KINDS = ['text', 'day', 'count', 'percent', 'hours', 'minutes'] as const;
export type TReportValueKind = (typeof REPORT_VALUE_KINDS)[number];

export const ZReportColumn = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(REPORT_VALUE_KINDS),
  /** What the figure counts or measures, shown beside it; null for a row's label. */
  definition: z.string().nullable(),
});
export type TReportColumn = z.infer<typeof ZReportColumn>;

export const ZReportCell = z.union([z.string(), z.number(), z.null()]);
export type TReportCell = z.infer<typeof ZReportCell>;

/** A headline figure over the whole range and filters (the table's total where there is one). */
export const ZReportMetric = ZReportColumn.extend({ value: ZReportCell });
export type TReportMetric = z.infer<typeof ZReportMetric>;

export const ZReport = z.object({
  id: z.enum(REPORT_IDS),
  title: z.string(),
  /** One sentence: what the report is for. */
  description: z.string(),
  timeZone: z.string(),
  /** The query as applied: the grouping filled in with the report's default. */
  query: z.object({
    from: z.string(),
    to: z.string(),
    providerId: z.string().nullable(),
    appointmentType: z.enum(REPORT_APPOINTMENT_TYPES).nullable(),
    groupBy: z.enum(REPORT_GROUPINGS),
  }),
  /** The filters this report takes (others are refused) and the groupings it offers. */
  filters: z.array(z.enum(REPORT_FILTERS)),
  groupings: z.array(z.enum(REPORT_GROUPINGS)),
  /** When the figures were read (an ISO instant). */
  generatedAt: z.string(),
  metrics: z.array(ZReportMetric),
  /** The table: its first column labels the row; every other column is a figure. */
  columns: z.array(ZReportColumn),
  rows: z.array(z.record(z.string(), ZReportCell)),
  /** The chart draws these columns (bars per row, one series per key) over the rows. */
  chart: z.object({ series: z.array(z.string()) }),
  /** A note the reader should know (figures not recorded before an upgrade, a setting missing). */
  caveats: z.array(z.string()),
});
export type TReport = z.infer<typeof ZReport>;

/** The reports' names and what each is for, in the order the screen lists them. */
export const REPORT_TITLES: Record<TReportId, { title: string; description: string }> = {
  'no-shows': { title: 'No-shows', description: 'How many booked visits did not happen, and how many were cancelled late.' },
  'schedule-use': { title: 'Schedule use', description: "How much of the clinic's open room time was booked, and where it stood idle." },
  'staff-activity': { title: 'Staff activity', description: 'Visits completed and notes written, reviewed and finalized, by person.' },
  'note-turnaround': { title: 'Note turnaround', description: 'How long notes take from the end of the visit to finalization, stage by stage.' },
  'lab-turnaround': { title: 'Lab turnaround', description: 'How long lab results take to come in and to be reviewed, and what is overdue.' },
  supply: { title: 'Supply', description: 'How long supply orders take to be ready and picked up, what came short, and what is low.' },
};
