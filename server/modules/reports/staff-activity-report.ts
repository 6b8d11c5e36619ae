import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { fullName } from '../../db/user-name.ts';
import { column, inRange, metric, type TReportDefinition } from './report-kit.ts';

const COLUMNS = {
  person: column('person', 'Person', 'text', null),
  visitsAsNurse: column(
    'visitsAsNurse',
    'Visits as nurse',
    'count',
    'Visits completed in the range (by the time they were completed) with her as the assigned nurse.',
  ),
  visitsAsScribe: column('visitsAsScribe', 'Visits as scribe', 'count', 'Visits completed in the range with her as the assigned scribe.'),
  notesWritten: column('notesWritten', 'Notes written', 'count', 'Notes she started (their first draft) in the range.'),
  notesReviewed: column(
    'notesReviewed',
    'Notes reviewed',
    'count',
    'Times she marked a note reviewed in the range (a note reviewed again after going back to draft counts again).',
  ),
  notesFinalized: column('notesFinalized', 'Notes finalized', 'count', 'Notes she finalized in the range.'),
};
const FIGURES = ['visitsAsNurse', 'visitsAsScribe', 'notesWritten', 'notesReviewed', 'notesFinalized'] as const;
type TActivity = Record<(typeof FIGURES)[number], number> & { personId: string; name: string; role: string };

/**
 * Staff activity (issue 34, report 3): from recorded moves only, each with its time and who made
 * it. Visits by `completed_at` (stamped by the Complete move); notes by their revisions (created,
 * moved to reviewed, moved to finalized), whose actor is the person. An edit is not a move.
 */
export const STAFF_ACTIVITY_REPORT: TReportDefinition = {
  id: 'staff-activity',
  filters: ['provider'],
  groupings: ['person'],
  async run(run) {
    const person = run.providerId ? sql`and x.person = ${run.providerId}::uuid` : sql``;
    const rows = await queryRows<TActivity>(
      run.q,
      sql`
      with x as (
        select a.assigned_nurse_id as person, 'visitsAsNurse' as what from appointments a
          where a.status = 'completed' and ${inRange(sql`a.completed_at`, run)} and a.assigned_nurse_id is not null
        union all
        select a.assigned_scribe_id, 'visitsAsScribe' from appointments a
          where a.status = 'completed' and ${inRange(sql`a.completed_at`, run)} and a.assigned_scribe_id is not null
        union all
        select r.actor_id,
          case when r.action = 'created' then 'notesWritten' when r.to_status = 'reviewed_by_scribe' then 'notesReviewed' else 'notesFinalized' end
          from note_revisions r
          where ${inRange(sql`r.at`, run)}
            and (r.action = 'created' or (r.action = 'moved' and r.to_status in ('reviewed_by_scribe', 'finalized')))
      )
      select x.person as "personId", coalesce(${fullName('u')}, u.email) as name, u.role::text as role,
        ${sql.join(
          FIGURES.map((f) => sql`(count(*) filter (where x.what = ${f}))::int as ${sql.identifier(f)}`),
          sql`, `,
        )}
      from x join users u on u.id = x.person
      where true ${person}
      group by x.person, u.first_name, u.last_name, u.email, u.role
      order by name, x.person`,
    );
    const total = Object.fromEntries(FIGURES.map((f) => [f, rows.reduce((n, r) => n + r[f], 0)])) as Record<(typeof FIGURES)[number], number>;
    return {
      metrics: FIGURES.map((f) => metric(COLUMNS[f], total[f])),
      columns: Object.values(COLUMNS),
      rows: rows.map((r) => ({ person: `${r.name} (${r.role})`, ...Object.fromEntries(FIGURES.map((f) => [f, r[f]])) })),
      chart: { series: [...FIGURES] },
      caveats: [],
    };
  },
};
