import { z } from 'zod';
import { APPOINTMENT_STATUSES } from './appointments.ts';
import { NOTE_STATUSES } from './notes.ts';

/** How many clinic days the appointments chart covers: today and the days before it. */
export const ANALYTICS_DAYS = 30;

/** How far back the submitted-to-finalized turnaround looks, by when the note was finalized. */
export const TURNAROUND_WINDOW_DAYS = 90;

const ZCount = z.number().int().nonnegative();

/** One clinic day's appointments (by the day they start on), one count per status, zeros included. */
export const ZAppointmentDay = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  counts: z.object(Object.fromEntries(APPOINTMENT_STATUSES.map((s) => [s, ZCount])) as Record<(typeof APPOINTMENT_STATUSES)[number], typeof ZCount>),
  total: ZCount,
});
export type TAppointmentDay = z.infer<typeof ZAppointmentDay>;

/**
 * GET /api/admin/analytics (issue 20): counts only, clinic-wide, with no patient or staff
 * named and no clinical text, so it may be shown to anyone with `analytics.view`.
 */
export const ZAnalytics = z.object({
  /** The clinic's time zone the days are taken in. */
  timeZone: z.string(),
  /** The first and last clinic day covered (both inclusive, the last is today). */
  from: z.string(),
  to: z.string(),
  /** Oldest first, every day of the window, days with no appointment too. */
  appointmentsPerDay: z.array(ZAppointmentDay),
  /** Every note in the clinic, whatever its age, by its current status (every status listed). */
  notesByStatus: z.array(z.object({ status: z.enum(NOTE_STATUSES), count: ZCount })),
  /**
   * From a note's first submission to a scribe (its first move to submitted_to_scribe, from the
   * note's revisions) to its finalization, over the notes finalized in the last `windowDays`
   * days that have a recorded submission. Null figures when there are none.
   */
  turnaround: z.object({ windowDays: z.number().int(), noteCount: ZCount, averageSeconds: z.number().nullable(), medianSeconds: z.number().nullable() }),
});
export type TAnalytics = z.infer<typeof ZAnalytics>;
