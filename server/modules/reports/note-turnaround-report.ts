import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import {
  column,
  durationFigures,
  hoursOf,
  inRange,
  metric,
  round1,
  secondsBetween,
  type TDurationFigures,
  type TReportDefinition,
  type TReportRun,
} from './report-kit.ts';

/** How far back from a note's first draft its visit may have started, to be the visit it is about. */
export const VISIT_LINK_DAYS = 7;

/** The stages, each from one recorded moment to the next; a stage counts in the range its end falls in. */
const STAGES = [
  { key: 'visitToDraft', label: 'Visit end to first draft', from: sql`s.visit_end`, to: sql`s.drafted`, clampAtZero: true },
  { key: 'draftToSubmitted', label: 'First draft to submitted', from: sql`s.drafted`, to: sql`s.submitted`, clampAtZero: false },
  { key: 'submittedToReviewed', label: 'Submitted to reviewed', from: sql`s.submitted`, to: sql`s.reviewed`, clampAtZero: false },
  { key: 'reviewedToFinalized', label: 'Reviewed to finalized', from: sql`s.reviewed`, to: sql`s.finalized`, clampAtZero: false },
  { key: 'visitToFinalized', label: 'Visit end to finalized', from: sql`s.visit_end`, to: sql`s.finalized`, clampAtZero: true },
] as const;

const COLUMNS = {
  stage: column('stage', 'Stage', 'text', null),
  notes: column('notes', 'Notes', 'count', 'Notes that ended this stage in the range (by the time of its end).'),
  medianHours: column('medianHours', 'Median', 'hours', 'Half the notes took this long or less.'),
  p90Hours: column('p90Hours', '90th percentile', 'hours', 'Nine notes in ten took this long or less.'),
};
const FINALIZED = column('finalized', 'Notes finalized', 'count', 'Notes finalized in the range.');
const AMENDMENTS = column('amendments', 'Amendments', 'count', 'Amendments of finalized notes made in the range.');
const AMENDMENT_RATE = column('amendmentsPer100', 'Amendments per 100 notes', 'count', 'Amendments made in the range for every 100 notes finalized in it.');

function stageFigures(stage: (typeof STAGES)[number], run: TReportRun): SQL {
  const seconds = secondsBetween(stage.from, stage.to);
  return sql`${durationFigures(stage.clampAtZero ? sql`greatest(0, ${seconds})` : seconds, sql`${stage.from} is not null and ${inRange(stage.to, run)}`)} as ${sql.identifier(stage.key)}`;
}

/**
 * Note turnaround (issue 34, report 4), from the note's revisions: its first draft is its
 * 'created' revision, and each later moment the first move into that status. Edits and
 * amendments are other actions, so changing a finalized note never moves its clock. The visit a
 * note is about is its patient's latest visit, with the note's author as its nurse, that began
 * (check-in, else start) within VISIT_LINK_DAYS before the draft; its end is `completed_at`. A
 * draft written before the visit ended counts as no wait.
 */
export const NOTE_TURNAROUND_REPORT: TReportDefinition = {
  id: 'note-turnaround',
  filters: ['provider'],
  groupings: ['stage'],
  async run(run) {
    const author = run.providerId ? sql`and n.author_id = ${run.providerId}::uuid` : sql``;
    const [row] = await queryRows<Record<string, TDurationFigures> & { finalized: number; amendments: number }>(
      run.q,
      sql`
      with touched as (
        select distinct r.note_id from note_revisions r
        where ${inRange(sql`r.at`, run)} and r.action in ('created', 'moved')
      ),
      moments as (
        select r.note_id,
          min(r.at) filter (where r.action = 'created') as drafted,
          min(r.at) filter (where r.action = 'moved' and r.to_status = 'submitted_to_scribe') as submitted,
          min(r.at) filter (where r.action = 'moved' and r.to_status = 'reviewed_by_scribe') as reviewed,
          min(r.at) filter (where r.action = 'moved' and r.to_status = 'finalized') as finalized
        from note_revisions r join touched t on t.note_id = r.note_id
        group by r.note_id
      ),
      stamps as (
        select m.*, visit.ended as visit_end
        from moments m join patient_notes n on n.id = m.note_id ${author}
        left join lateral (
          select a.completed_at as ended from appointments a
          where a.patient_id = n.patient_id and a.assigned_nurse_id = n.author_id and a.status = 'completed'
            and coalesce(a.checked_in_at, a.appointment_date) <= m.drafted
            and coalesce(a.checked_in_at, a.appointment_date) > m.drafted - make_interval(days => ${VISIT_LINK_DAYS})
          order by coalesce(a.checked_in_at, a.appointment_date) desc limit 1
        ) visit on true
      )
      select ${sql.join(
        STAGES.map((stage) => stageFigures(stage, run)),
        sql`, `,
      )},
        (count(*) filter (where ${inRange(sql`s.finalized`, run)}))::int as finalized,
        (select count(*)::int from note_revisions r join patient_notes n on n.id = r.note_id ${author}
          where r.action = 'amended' and ${inRange(sql`r.at`, run)}) as amendments
      from stamps s`,
    );
    const figures = row!;
    const total = figures.visitToFinalized!;
    return {
      metrics: [
        metric(COLUMNS.medianHours, hoursOf(total.medianSeconds), 'Median, visit end to finalized'),
        metric(FINALIZED, figures.finalized),
        metric(AMENDMENTS, figures.amendments),
        metric(AMENDMENT_RATE, figures.finalized === 0 ? null : round1((100 * figures.amendments) / figures.finalized)),
      ],
      columns: Object.values(COLUMNS),
      rows: STAGES.map((stage) => {
        const f = figures[stage.key]!;
        return { stage: stage.label, notes: f.count, medianHours: hoursOf(f.medianSeconds), p90Hours: hoursOf(f.p90Seconds) };
      }),
      chart: { series: ['medianHours', 'p90Hours'] },
      caveats: [],
    };
  },
};
