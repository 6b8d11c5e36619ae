import { sql, type SQL } from 'drizzle-orm';
import { appointmentTypeLabel } from '#domain/appointment-labels';
import type { TReportCell } from '#domain/reports';
import { queryRows } from '../../db/database.ts';
import { fullName } from '../../db/user-name.ts';
import { clinicDay, clinicWeek, column, inRange, metric, percentOf, weeksOf, type TReportDefinition, type TReportRun } from './report-kit.ts';

interface TCounts {
  booked: number;
  completed: number;
  noShows: number;
  lateCancellations: number;
  otherCancellations: number;
}

const COLUMNS = (lateHours: number) => ({
  booked: column('booked', 'Booked', 'count', 'Appointments whose start falls in the range, whatever became of them.'),
  completed: column('completed', 'Completed', 'count', 'Appointments in the range that were completed.'),
  noShows: column('noShows', 'No-shows', 'count', 'Appointments in the range marked no-show.'),
  noShowRate: column('noShowRate', 'No-show rate', 'percent', 'No-shows / (completed + no-shows). Cancellations are left out of it.'),
  lateCancellations: column(
    'lateCancellations',
    'Late cancellations',
    'count',
    `Cancelled less than ${lateHours} h before the start (Settings, Schedule), or after it: the time of the cancellation as recorded.`,
  ),
  otherCancellations: column(
    'otherCancellations',
    'Other cancellations',
    'count',
    `Cancelled ${lateHours} h or more before the start, or before the cancellation time was recorded.`,
  ),
});

/** How many records one read of the export takes. */
const RECORD_BATCH = 5_000;

/**
 * A cancellation with less notice than Settings ask (or made after the start): never null, so
 * one made before its time was kept (no `cancelled_at`) is not late.
 */
const lateCancellation = (run: TReportRun): SQL =>
  sql`(a.cancelled_at is not null and a.appointment_date - a.cancelled_at < make_interval(hours => ${run.schedule.lateCancelHours}))`;

/** The filters the table and its records share. */
const filtersOf = (run: TReportRun): SQL =>
  sql`${inRange(sql`a.appointment_date`, run)}
    ${run.providerId ? sql`and a.provider_id = ${run.providerId}::uuid` : sql``}
    ${run.appointmentType ? sql`and coalesce(nullif(a.appointment_type, ''), 'general') = ${run.appointmentType}` : sql``}`;

/** What a row of the chosen grouping is named by, and the SQL that keys it. */
function groupingOf(run: TReportRun): { key: SQL; label: ReturnType<typeof column> } {
  switch (run.groupBy) {
    case 'provider':
      return { key: sql`a.provider_id::text`, label: column('provider', 'Provider', 'text', null) };
    case 'type':
      return { key: sql`coalesce(nullif(a.appointment_type, ''), 'general')`, label: column('type', 'Appointment type', 'text', null) };
    default:
      return { key: clinicWeek(sql`a.appointment_date`, run.timeZone), label: column('week', 'Week of', 'day', null) };
  }
}

/**
 * No-shows (issue 34, report 1). Appointments are counted on the clinic day they were booked to
 * start. A late cancellation is measured from `cancelled_at`, stamped by the cancel move, never
 * from `updated_at`: a later edit of the appointment does not move it.
 */
export const NO_SHOWS_REPORT: TReportDefinition = {
  id: 'no-shows',
  filters: ['provider', 'appointmentType'],
  groupings: ['week', 'provider', 'type'],
  async run(run) {
    const grouping = groupingOf(run);
    const late = lateCancellation(run);
    const rows = await queryRows<TCounts & { key: string; providerName: string | null }>(
      run.q,
      sql`
      select g.key, g.booked, g.completed, g."noShows", g."lateCancellations", g."otherCancellations",
        ${run.groupBy === 'provider' ? sql`(select coalesce(${fullName('u')}, u.email) from users u where u.id::text = g.key)` : sql`null::text`} as "providerName"
      from (
        select ${grouping.key} as key,
          count(*)::int as booked,
          (count(*) filter (where a.status = 'completed'))::int as completed,
          (count(*) filter (where a.status = 'no_show'))::int as "noShows",
          (count(*) filter (where a.status = 'cancelled' and ${late}))::int as "lateCancellations",
          (count(*) filter (where a.status = 'cancelled' and not ${late}))::int as "otherCancellations"
        from appointments a
        where ${filtersOf(run)}
        group by 1
      ) g`,
    );

    const byKey = new Map(rows.map((r) => [r.key, r]));
    const zero: TCounts = { booked: 0, completed: 0, noShows: 0, lateCancellations: 0, otherCancellations: 0 };
    // Every week is a row, empty ones too; providers and types only where they had appointments.
    const keys = run.groupBy === 'week' ? weeksOf(run.from, run.to) : rows.map((r) => r.key);
    const labelOf = (key: string) =>
      run.groupBy === 'provider'
        ? (byKey.get(key)?.providerName ?? 'Unknown')
        : run.groupBy === 'type'
          ? appointmentTypeLabel(key === 'general' ? null : key)
          : key;
    const cols = COLUMNS(run.schedule.lateCancelHours);
    const figures = (c: TCounts): Record<string, TReportCell> => ({
      booked: c.booked,
      completed: c.completed,
      noShows: c.noShows,
      noShowRate: percentOf(c.noShows, c.completed + c.noShows),
      lateCancellations: c.lateCancellations,
      otherCancellations: c.otherCancellations,
    });
    const table = keys
      .map((key) => ({ label: labelOf(key), counts: byKey.get(key) ?? zero }))
      .sort((a, b) => (run.groupBy === 'week' ? 0 : a.label.localeCompare(b.label)))
      .map(({ label, counts }) => ({ [grouping.label.key]: label, ...figures(counts) }));

    const total = rows.reduce<TCounts>(
      (sum, r) => ({
        booked: sum.booked + r.booked,
        completed: sum.completed + r.completed,
        noShows: sum.noShows + r.noShows,
        lateCancellations: sum.lateCancellations + r.lateCancellations,
        otherCancellations: sum.otherCancellations + r.otherCancellations,
      }),
      zero,
    );
    const totals = figures(total);
    return {
      metrics: [
        metric(cols.noShowRate, totals.noShowRate ?? null),
        metric(cols.noShows, totals.noShows ?? null),
        metric(cols.lateCancellations, totals.lateCancellations ?? null),
        metric(cols.booked, totals.booked ?? null),
      ],
      columns: [grouping.label, ...Object.values(cols)],
      rows: table,
      chart: { series: ['noShows', 'lateCancellations', 'completed'] },
      caveats: [],
    };
  },
  records: {
    columns: ['Clinic day', 'Week of', 'Start', 'Minutes', 'Provider', 'Appointment type', 'Room', 'Status', 'Hours of notice', 'Late cancellation'],
    async *batches(run) {
      let after: { at: string; id: string } | null = null;
      for (;;) {
        const rows: { at: string; id: string; cells: TReportCell[] }[] = await queryRows(
          run.q,
          sql`
          select to_char(a.appointment_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, a.id::text as id,
            json_build_array(
              ${clinicDay(sql`a.appointment_date`, run.timeZone)}, ${clinicWeek(sql`a.appointment_date`, run.timeZone)},
              to_char(a.appointment_date at time zone ${run.timeZone}, 'HH24:MI'), a.duration,
              (select coalesce(${fullName('u')}, u.email) from users u where u.id = a.provider_id),
              coalesce(nullif(a.appointment_type, ''), 'general'), a.room_number, a.status,
              case when a.status = 'cancelled' and a.cancelled_at is not null
                then round((extract(epoch from (a.appointment_date - a.cancelled_at)) / 3600)::numeric, 1) end,
              case when a.status = 'cancelled' then ${lateCancellation(run)} end
            ) as cells
          from appointments a
          where ${filtersOf(run)}
            ${after ? sql`and (a.appointment_date, a.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
          order by a.appointment_date, a.id
          limit ${RECORD_BATCH}`,
        );
        if (rows.length === 0) return;
        yield rows.map((r) => r.cells);
        if (rows.length < RECORD_BATCH) return;
        after = rows.at(-1)!;
      }
    },
  },
};
