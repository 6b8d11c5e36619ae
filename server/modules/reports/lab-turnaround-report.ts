import { sql } from 'drizzle-orm';
import { zonedDate } from '#domain/clinic-time';
import { LAB_PRIORITIES } from '#domain/labs';
import { UNREVIEWED_RESULT_HOURS } from '#domain/reports';
import { queryRows } from '../../db/database.ts';
import { column, durationFigures, hoursOf, inRange, metric, secondsBetween, type TDurationFigures, type TReportDefinition } from './report-kit.ts';

const PRIORITY_LABELS: Record<(typeof LAB_PRIORITIES)[number], string> = { routine: 'Routine', urgent: 'Urgent', stat: 'STAT' };

const COLUMNS = {
  priority: column('priority', 'Priority', 'text', null),
  received: column('received', 'Results in', 'count', 'Orders whose results came in during the range.'),
  receivedMedianHours: column(
    'receivedMedianHours',
    'Order to results, median',
    'hours',
    'From the order to its first results, for results in during the range: half took this long or less.',
  ),
  receivedP90Hours: column('receivedP90Hours', 'Order to results, 90th percentile', 'hours', 'Nine in ten took this long or less.'),
  reviewed: column('reviewed', 'Reviewed', 'count', 'Orders whose results were first reviewed during the range.'),
  reviewedMedianHours: column(
    'reviewedMedianHours',
    'Results to review, median',
    'hours',
    'From the first results to their first review (a correction does not restart it).',
  ),
  reviewedP90Hours: column('reviewedP90Hours', 'Results to review, 90th percentile', 'hours', 'Nine in ten were reviewed this soon or sooner.'),
  overdue: column('overdue', 'Overdue now', 'count', 'Orders still waiting for results after their expected day, as of now (whatever the range).'),
  unreviewedOld: column(
    'unreviewedOld',
    `Unreviewed > ${UNREVIEWED_RESULT_HOURS} h now`,
    'count',
    `Results in for more than ${UNREVIEWED_RESULT_HOURS} hours and not yet reviewed, as of now.`,
  ),
};

type TLabRow = {
  priority: (typeof LAB_PRIORITIES)[number];
  toReceived: TDurationFigures;
  toReviewed: TDurationFigures;
  overdue: number;
  unreviewedOld: number;
};

/**
 * Lab turnaround (issue 34, report 5), by priority, from the order's recorded moments:
 * `ordered_at`, `received_at` (the first results; a correction keeps it) and `first_reviewed_at`.
 * Durations count in the range their end falls in; the overdue and old-unreviewed counts are
 * what stands open now, as the Lab Orders screen's queues show it.
 */
export const LAB_TURNAROUND_REPORT: TReportDefinition = {
  id: 'lab-turnaround',
  filters: ['provider'],
  groupings: ['priority'],
  async run(run) {
    const today = zonedDate(run.now, run.timeZone);
    const staleBefore = new Date(run.now.getTime() - UNREVIEWED_RESULT_HOURS * 3_600_000).toISOString();
    const receivedIn = inRange(sql`l.received_at`, run);
    const reviewedIn = inRange(sql`l.first_reviewed_at`, run);
    const overdue = sql`l.status in ('ordered', 'pending') and l.expected_on < ${today}::date`;
    const unreviewedOld = sql`l.status = 'received' and l.reviewed_at is null and l.received_at < ${staleBefore}::timestamptz`;
    const rows = await queryRows<TLabRow>(
      run.q,
      sql`
      select l.priority::text as priority,
        ${durationFigures(secondsBetween(sql`l.ordered_at`, sql`l.received_at`), receivedIn)} as "toReceived",
        ${durationFigures(secondsBetween(sql`l.received_at`, sql`l.first_reviewed_at`), sql`${reviewedIn} and l.received_at is not null`)} as "toReviewed",
        (count(*) filter (where ${overdue}))::int as overdue,
        (count(*) filter (where ${unreviewedOld}))::int as "unreviewedOld"
      from lab_orders l
      where ((${receivedIn}) or (${reviewedIn}) or (${overdue}) or (${unreviewedOld}))
        ${run.providerId ? sql`and l.provider_id = ${run.providerId}::uuid` : sql``}
      group by l.priority`,
    );
    const byPriority = new Map(rows.map((r) => [r.priority, r]));
    const none: TDurationFigures = { count: 0, medianSeconds: null, p90Seconds: null };
    const table = [...LAB_PRIORITIES].reverse().map((priority) => {
      const r = byPriority.get(priority);
      const toReceived = r?.toReceived ?? none;
      const toReviewed = r?.toReviewed ?? none;
      return {
        priority: PRIORITY_LABELS[priority],
        received: toReceived.count,
        receivedMedianHours: hoursOf(toReceived.medianSeconds),
        receivedP90Hours: hoursOf(toReceived.p90Seconds),
        reviewed: toReviewed.count,
        reviewedMedianHours: hoursOf(toReviewed.medianSeconds),
        reviewedP90Hours: hoursOf(toReviewed.p90Seconds),
        overdue: r?.overdue ?? 0,
        unreviewedOld: r?.unreviewedOld ?? 0,
      };
    });
    const sum = (key: 'received' | 'reviewed' | 'overdue' | 'unreviewedOld') => table.reduce((n, r) => n + r[key], 0);
    return {
      metrics: [
        metric(COLUMNS.overdue, sum('overdue')),
        metric(COLUMNS.unreviewedOld, sum('unreviewedOld')),
        metric(COLUMNS.received, sum('received')),
        metric(COLUMNS.reviewed, sum('reviewed')),
      ],
      columns: Object.values(COLUMNS),
      rows: table,
      chart: { series: ['receivedMedianHours', 'reviewedMedianHours'] },
      caveats: [],
    };
  },
};
