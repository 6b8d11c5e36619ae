import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useId } from 'react';
import type { TAnalytics } from '#domain/analytics';
import { NOTE_STATUS_LABELS } from '#domain/notes';
import { NOTE_STATUS_COLOURS } from '../../components/charts/chart-colors.ts';

type TNoteCounts = TAnalytics['notesByStatus'];

const ROW_PX = 34;
/** Wide enough for the longest label, 'Submitted to Admin', at 12 px. */
const LABEL_PX = 128;
/** Room for the count after the longest bar. */
const VALUE_PX = 40;

/**
 * Every note in the clinic by its status, as horizontal bars: the labels stay level and
 * readable at 375 px, where a donut's would not. The counts are printed beside the bars, and
 * a table carries them for screen readers.
 */
export function NotesByStatusChart({ notes }: { notes: TNoteCounts }) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const titleId = useId();
  const summaryId = useId();
  const total = notes.reduce((n, s) => n + s.count, 0);
  const summary = `${total} notes: ${notes.map((s) => `${s.count} ${NOTE_STATUS_LABELS[s.status].toLowerCase()}`).join(', ')}.`;

  return (
    <section aria-labelledby={titleId} data-testid="notes-chart" className="rounded-lg border bg-white p-4 shadow-sm sm:p-6">
      <h3 id={titleId} className="text-base font-semibold text-slate-900">
        Notes by status
      </h3>
      <p className="text-sm text-slate-600">Every note in the clinic, {total} in all</p>
      {total === 0 ? (
        <p data-testid="notes-chart-empty" className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-slate-600">
          No notes yet.
        </p>
      ) : (
        <>
          <p id={summaryId} className="sr-only">
            {summary}
          </p>
          <div ref={parentRef} className="mt-4 w-full">
            {width > 0 && <Bars notes={notes} width={width} titleId={titleId} summaryId={summaryId} />}
          </div>
          {/* A table ignores the 1 px width sr-only gives it: its box does not. */}
          <div className="sr-only">
            <table>
              <caption>Notes by status</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Notes</th>
                </tr>
              </thead>
              <tbody>
                {notes.map((s) => (
                  <tr key={s.status}>
                    <th scope="row">{NOTE_STATUS_LABELS[s.status]}</th>
                    <td>{s.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Bars({ notes, width, titleId, summaryId }: { notes: TNoteCounts; width: number; titleId: string; summaryId: string }) {
  const height = notes.length * ROW_PX;
  const barWidth = Math.max(0, width - LABEL_PX - VALUE_PX);
  const yScale = scaleBand<string>({ domain: notes.map((s) => s.status), range: [0, height], padding: 0.25 });
  const xScale = scaleLinear<number>({ domain: [0, Math.max(1, ...notes.map((s) => s.count))], range: [0, barWidth] });

  return (
    <svg width={width} height={height} role="img" aria-labelledby={`${titleId} ${summaryId}`} className="block">
      {notes.map((s) => {
        const y = yScale(s.status) ?? 0;
        const w = xScale(s.count);
        const middle = y + yScale.bandwidth() / 2;
        return (
          <Group key={s.status}>
            <text x={LABEL_PX - 8} y={middle} dy="0.35em" textAnchor="end" fontSize={12} className="fill-slate-700">
              {NOTE_STATUS_LABELS[s.status]}
            </text>
            <rect x={LABEL_PX} y={y} width={barWidth} height={yScale.bandwidth()} rx={3} className="fill-slate-100" />
            {s.count > 0 && (
              <Bar
                data-testid="note-bar"
                data-status={s.status}
                x={LABEL_PX}
                y={y}
                width={Math.max(2, w)}
                height={yScale.bandwidth()}
                rx={3}
                className={NOTE_STATUS_COLOURS[s.status].fill}
              />
            )}
            <text x={LABEL_PX + barWidth + 6} y={middle} dy="0.35em" fontSize={12} fontWeight={600} className="fill-slate-900">
              {s.count}
            </text>
          </Group>
        );
      })}
    </svg>
  );
}
