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
    // Each source is counted by person as it is read (one pass over its index), and only those
    // few hundred sums are joined to the staff: a year of a network is millions of moves.
    const person = (column: string) => (run.providerId ? sql`and ${sql.raw(column)} = ${run.providerId}::uuid` : sql``);
    const rows = await queryRows<TActivity>(
      run.q,
      sql`
      with x as (
        select v.person,
          (count(*) filter (where v.nurse))::int as "visitsAsNurse", (count(*) filter (where not v.nurse))::int as "visitsAsScribe",
          0 as "notesWritten", 0 as "notesReviewed", 0 as "notesFinalized"
        from appointments a
        cross join lateral (values (a.assigned_nurse_id, true), (a.assigned_scribe_id, false)) v(person, nurse)
        where a.status = 'completed' and ${inRange(sql`a.completed_at`, run)} and v.person is not null ${person('v.person')}
        group by v.person
        union all
        select r.actor_id, 0, 0,
          (count(*) filter (where r.action = 'created'))::int,
          (count(*) filter (where r.action = 'moved' and r.to_status = 'reviewed_by_scribe'))::int,
          (count(*) filter (where r.action = 'moved' and r.to_status = 'finalized'))::int
        from note_revisions r
        where ${inRange(sql`r.at`, run)}
          and (r.action = 'created' or (r.action = 'moved' and r.to_status in ('reviewed_by_scribe', 'finalized'))) ${person('r.actor_id')}
        group by r.actor_id
      )
      select x.person as "personId", coalesce(${fullName('u')}, u.email) as name, u.role::text as role,
        ${sql.join(
          FIGURES.map((f) => sql`sum(x.${sql.identifier(f)})::int as ${sql.identifier(f)}`),
          sql`, `,
        )}
      from x join users u on u.id = x.person
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
