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

/** The stages, each from one recorded moment to the next; a stage counts in the range its end falls in. */
const STAGES = [
  { key: 'visitToDraft', label: 'Visit end to first draft', from: sql`s.visit_ended_at`, to: sql`s.drafted_at`, clampAtZero: true },
  { key: 'draftToSubmitted', label: 'First draft to submitted', from: sql`s.drafted_at`, to: sql`s.submitted_at`, clampAtZero: false },
  { key: 'submittedToReviewed', label: 'Submitted to reviewed', from: sql`s.submitted_at`, to: sql`s.reviewed_at`, clampAtZero: false },
  { key: 'reviewedToFinalized', label: 'Reviewed to finalized', from: sql`s.reviewed_at`, to: sql`s.finalized_at`, clampAtZero: false },
  { key: 'visitToFinalized', label: 'Visit end to finalized', from: sql`s.visit_ended_at`, to: sql`s.finalized_at`, clampAtZero: true },
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
 * Note turnaround (issue 34, report 4), from each note's milestones (`note_milestones`, kept by
 * the database from its revisions): its first draft is its 'created' revision, and each later
 * moment the first move into that status. Edits and amendments are other actions, so changing a
 * finalized note never moves its clock. The visit a note is about, and that visit's end, are
 * linked when the note is drafted (migration 0023, `note_visit_of`). A draft written before the
 * visit ended counts as no wait.
 */
export const NOTE_TURNAROUND_REPORT: TReportDefinition = {
  id: 'note-turnaround',
  filters: ['provider'],
  groupings: ['stage'],
  async run(run) {
    const author = (alias: string) => (run.providerId ? sql`and ${sql.raw(alias)}.author_id = ${run.providerId}::uuid` : sql``);
    const touched = sql.join(
      [sql`s.drafted_at`, sql`s.submitted_at`, sql`s.reviewed_at`, sql`s.finalized_at`].map((at) => sql`(${inRange(at, run)})`),
      sql` or `,
    );
    const [row] = await queryRows<Record<string, TDurationFigures> & { finalized: number; amendments: number }>(
      run.q,
      sql`
      select ${sql.join(
        STAGES.map((stage) => stageFigures(stage, run)),
        sql`, `,
      )},
        (count(*) filter (where ${inRange(sql`s.finalized_at`, run)}))::int as finalized,
        (select count(*)::int from note_revisions r join patient_notes n on n.id = r.note_id ${author('n')}
          where r.action = 'amended' and ${inRange(sql`r.at`, run)}) as amendments
      from note_milestones s
      where (${touched}) ${author('s')}`,
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
