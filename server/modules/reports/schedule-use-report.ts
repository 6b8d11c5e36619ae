import { sql } from 'drizzle-orm';
import { zonedWallTime } from '#domain/clinic-time';
import { APPOINTMENT_DURATIONS } from '#domain/appointments';
import { IDLE_GAP_MINUTES } from '#domain/reports';
import { WEEKDAYS } from '#domain/settings';
import { queryRows } from '../../db/database.ts';
import { column, daysOf, metric, mondayOf, percentOf, type TReportDefinition, type TReportRun } from './report-kit.ts';

const COLUMNS = {
  capacityMinutes: column(
    'capacityMinutes',
    'Open room time',
    'minutes',
    "Opening hours (Settings, Schedule) times the clinic's rooms, on the clinic's clock (a DST day is an hour shorter or longer).",
  ),
  bookedMinutes: column(
    'bookedMinutes',
    'Booked',
    'minutes',
    'Minutes of open room time with a visit booked in that room: every status but cancelled (a no-show held its slot), overlaps counted once.',
  ),
  use: column('use', 'Schedule use', 'percent', 'Booked / open room time.'),
  idleGaps: column('idleGaps', 'Idle gaps', 'count', `Stretches of ${IDLE_GAP_MINUTES} minutes or more when an open room had no visit.`),
  idleGapMinutes: column('idleGapMinutes', 'Idle gap time', 'minutes', `The minutes of those gaps of ${IDLE_GAP_MINUTES} minutes or more.`),
  unplacedMinutes: column(
    'unplacedMinutes',
    'Booked outside the rooms',
    'minutes',
    'Minutes booked within opening hours in no room, or in a room not listed in Settings: not in the use above.',
  ),
};
/** No visit starts earlier than this before a day's opening and still reaches into it: the index range to read. */
const LONGEST_VISIT_MINUTES = Math.max(...APPOINTMENT_DURATIONS);

type TFigures = { capacityMinutes: number; bookedMinutes: number; idleGaps: number; idleGapMinutes: number; unplacedMinutes: number };
type TDayRow = TFigures & { day: string };

/**
 * Each open clinic day, numbered (`n`: the database sorts and groups by it, cheaper than text),
 * with its opening as instants: DST days are as long as the clinic's clock makes them.
 */
function openDays(run: TReportRun) {
  return daysOf(run.from, run.to).flatMap((day, n) => {
    const hours = run.schedule.openingHours[WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!];
    if (!hours) return [];
    const open_start = zonedWallTime(day, hours.opens, run.timeZone).toISOString();
    return [{ n, day, open_start, open_end: zonedWallTime(day, hours.closes, run.timeZone).toISOString() }];
  });
}

/**
 * Schedule use (issue 34, report 2): per clinic day, each listed room's opening hours against the
 * visits booked in it, clipped to those hours. A room's booked time is the union of its visits
 * (so two that overlap count once); what is left of its open time is idle, and stretches of
 * IDLE_GAP_MINUTES or more are the idle gaps. With no rooms listed in Settings, the rooms
 * visits used in the range are taken, and the report says so.
 */
export const SCHEDULE_USE_REPORT: TReportDefinition = {
  id: 'schedule-use',
  filters: [],
  groupings: ['week', 'day'],
  async run(run) {
    const days = openDays(run);
    const listed = run.schedule.rooms;
    const caveats: string[] = [];
    const rows =
      days.length === 0
        ? []
        : await queryRows<TDayRow>(
            run.q,
            sql`
      with days as (
        select * from json_to_recordset(${JSON.stringify(days)}::json) as d(n int, day text, open_start timestamptz, open_end timestamptz)
      ),
      visits as (
        select d.n, a.room_number collate "C" as room, greatest(a.appointment_date, d.open_start) as s, least(a.ends_at, d.open_end) as e
        from days d join appointments a
          on a.appointment_date < d.open_end and a.appointment_date > d.open_start - make_interval(mins => ${LONGEST_VISIT_MINUTES})
          and a.ends_at > d.open_start
        where a.status <> 'cancelled'
      ),
      rooms as (
        ${listed.length > 0 ? sql`select jsonb_array_elements_text(${JSON.stringify(listed)}::jsonb) collate "C" as room` : sql`select distinct v.room from visits v where v.room is not null and v.room <> ''`}
      ),
      edges as (
        select v.n, v.room, v.s, v.e from visits v join rooms r on r.room = v.room
        union all select d.n, r.room, d.open_start, d.open_start from days d cross join rooms r
        union all select d.n, r.room, d.open_end, d.open_end from days d cross join rooms r
      ),
      gaps as (
        -- Each edge's distance from the latest end before it in its room that day: an idle stretch when positive.
        select e.n, extract(epoch from (e.s - max(e.e) over (partition by e.n, e.room order by e.s, e.e rows between unbounded preceding and 1 preceding))) / 60 as minutes
        from edges e
      ),
      idle as (
        select g.n, coalesce(sum(g.minutes) filter (where g.minutes > 0), 0) as idle,
          count(*) filter (where g.minutes >= ${IDLE_GAP_MINUTES})::int as gaps,
          coalesce(sum(g.minutes) filter (where g.minutes >= ${IDLE_GAP_MINUTES}), 0) as gap_minutes
        from gaps g group by g.n
      ),
      unplaced as (
        select v.n, sum(extract(epoch from (v.e - v.s)) / 60) as minutes from visits v
        where v.room is null or v.room not in (select room from rooms) group by v.n
      )
      select d.day,
        (extract(epoch from (d.open_end - d.open_start)) / 60 * (select count(*) from rooms))::float8 as "capacityMinutes",
        (extract(epoch from (d.open_end - d.open_start)) / 60 * (select count(*) from rooms) - coalesce(i.idle, 0))::float8 as "bookedMinutes",
        coalesce(i.gaps, 0)::int as "idleGaps", coalesce(i.gap_minutes, 0)::float8 as "idleGapMinutes",
        coalesce(u.minutes, 0)::float8 as "unplacedMinutes"
      from days d left join idle i on i.n = d.n left join unplaced u on u.n = d.n
      order by d.day`,
          );
    if (listed.length === 0)
      caveats.push('No rooms are listed in Settings, Schedule: the rooms visits were booked in during the range are taken as the clinic’s rooms.');

    const zero = (): TFigures => ({ capacityMinutes: 0, bookedMinutes: 0, idleGaps: 0, idleGapMinutes: 0, unplacedMinutes: 0 });
    const periodOf = (day: string) => (run.groupBy === 'day' ? day : mondayOf(day));
    const periods = new Map<string, TFigures>(daysOf(run.from, run.to).map((d) => [periodOf(d), zero()]));
    const add = (into: TFigures, r: TFigures) => {
      for (const k of Object.keys(into) as (keyof TFigures)[]) into[k] += r[k];
    };
    const total = zero();
    for (const r of rows) {
      add(periods.get(periodOf(r.day))!, r);
      add(total, r);
    }
    const figures = (f: TFigures) => ({
      capacityMinutes: Math.round(f.capacityMinutes),
      bookedMinutes: Math.round(f.bookedMinutes),
      use: percentOf(f.bookedMinutes, f.capacityMinutes),
      idleGaps: f.idleGaps,
      idleGapMinutes: Math.round(f.idleGapMinutes),
      unplacedMinutes: Math.round(f.unplacedMinutes),
    });
    const label = run.groupBy === 'day' ? column('day', 'Day', 'day', null) : column('week', 'Week of', 'day', null);
    const totals = figures(total);
    return {
      metrics: [
        metric(COLUMNS.use, totals.use),
        metric(COLUMNS.bookedMinutes, totals.bookedMinutes),
        metric(COLUMNS.capacityMinutes, totals.capacityMinutes),
        metric(COLUMNS.idleGaps, totals.idleGaps),
      ],
      columns: [label, ...Object.values(COLUMNS)],
      rows: [...periods].map(([period, f]) => ({ [label.key]: period, ...figures(f) })),
      chart: { series: ['use'] },
      caveats,
    };
  },
};
