import { sql } from 'drizzle-orm';
import type { TAppointmentStatus } from '#domain/appointments';
import type { TNoteStatus } from '#domain/notes';
import { queryRows, type Queryable } from '../../db/database.ts';

export interface TAnalyticsRows {
  /** Only the (day, status) pairs with any appointment; the service fills in the zeros. */
  days: { date: string; status: TAppointmentStatus; count: number }[];
  notes: { status: TNoteStatus; count: number }[];
  turnaround: { noteCount: number; averageSeconds: number | null; medianSeconds: number | null };
}

/**
 * The Analytics tab's figures in one round trip, each grouped by the database:
 * - appointments starting in [from, to), by clinic day (taken in `timeZone`) and status: an
 *   index range scan of appointments_date_idx, however large the history;
 * - every note by status (patient_notes_status_idx);
 * - submitted-to-finalized over the notes finalized since `finalizedSince`: a note's submission
 *   is its first revision that moved it to submitted_to_scribe (note_revisions_note_idx per note;
 *   an edit while submitted also has that to_status, so only 'moved' rows count). Notes with no
 *   recorded submission (made before revisions were kept) are left out, not guessed.
 * Counts and durations only: no name, id or text leaves the database.
 */
export async function analyticsRows(q: Queryable, range: { from: Date; to: Date; timeZone: string; finalizedSince: Date }): Promise<TAnalyticsRows> {
  const [row] = await queryRows<TAnalyticsRows>(
    q,
    sql`
    select
      (select coalesce(json_agg(d order by d.date, d.status), '[]'::json) from (
        select to_char(appointment_date at time zone ${range.timeZone}, 'YYYY-MM-DD') as date, status::text as status, count(*)::int as count
        from appointments
        where appointment_date >= ${range.from.toISOString()}::timestamptz and appointment_date < ${range.to.toISOString()}::timestamptz
        group by 1, 2
      ) d) as days,
      (select coalesce(json_agg(n), '[]'::json) from (
        select status::text as status, count(*)::int as count from patient_notes group by status
      ) n) as notes,
      (select json_build_object(
          'noteCount', count(*)::int,
          'averageSeconds', avg(t.seconds)::float8,
          'medianSeconds', (percentile_cont(0.5) within group (order by t.seconds))::float8)
        from (
          select extract(epoch from (n.finalized_at - submitted.at))::float8 as seconds
          from patient_notes n
          cross join lateral (
            select min(r.at) as at from note_revisions r
            where r.note_id = n.id and r.action = 'moved' and r.to_status = 'submitted_to_scribe'
          ) submitted
          where n.status in ('finalized', 'submitted_to_admin')
            and n.finalized_at >= ${range.finalizedSince.toISOString()}::timestamptz
            and submitted.at is not null and submitted.at <= n.finalized_at
        ) t) as turnaround`,
  );
  return row!;
}
