import { useParentSize } from '@visx/responsive';
import { useId, type ReactNode, type Ref } from 'react';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../error-state.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { TREND_HEIGHT, TrendLine, type TTrendLinePoint } from './trend-line.tsx';

/** A trend's point as the section draws it, and its words for the screen reader's table. */
export type TTrendSectionPoint = TTrendLinePoint & { text: string };

interface TTrendSectionProps {
  /** 'Weight', 'Glucose': in the heading, the messages and the table's caption. */
  name: string;
  /** After the name in the heading: ' (kg)'. */
  unit: string;
  query: { data: unknown[] | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** What the too-few-points box says with none, and with one. */
  fewer: { none: string; one: string };
  /** Once there are two points or more: the sentence that sums them up, the points, the normal band. */
  figure: () => { summary: string; points: TTrendSectionPoint[]; band: Parameters<typeof TrendLine>[0]['band'] };
  timeZone: string;
  testId: string;
  sectionRef?: Ref<HTMLElement>;
  /** The section's other attributes (a vital sign's `data-sign`). */
  data?: Record<`data-${string}`, string>;
}

/**
 * A trend of the app (a lab analyte, a vital sign): its heading, the loading, error and
 * too-few-points states, then the summary, the line with its band, and the figures as a table for
 * screen readers. Each caller says only what its points are.
 */
export function TrendSection({ name, unit, query, fewer, figure, timeZone, testId, sectionRef, data }: TTrendSectionProps) {
  const titleId = useId();
  const count = query.data?.length ?? 0;
  let body: ReactNode;
  if (query.isPending)
    body = (
      <div>
        <p role="status" className="sr-only">
          Loading the trend of {name}
        </p>
        <Skeleton className="mt-2 h-40 w-full" aria-hidden="true" />
      </div>
    );
  else if (query.isError) body = <ErrorState title={`Could not load the trend of ${name}`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (count < 2)
    body = (
      <p data-testid={`${testId}-empty`} className="mt-2 rounded-md border border-dashed p-4 text-center text-sm text-slate-600">
        {count === 0 ? fewer.none : fewer.one}
      </p>
    );
  else body = <TrendFigure {...figure()} name={name} titleId={titleId} timeZone={timeZone} testId={testId} />;
  return (
    <section ref={sectionRef} aria-labelledby={titleId} data-testid={testId} className="rounded-md border bg-white p-3" {...data}>
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {name} over time{unit}
      </h3>
      {body}
    </section>
  );
}

function TrendFigure({
  summary,
  points,
  band,
  name,
  titleId,
  timeZone,
  testId,
}: ReturnType<TTrendSectionProps['figure']> & { name: string; titleId: string; timeZone: string; testId: string }) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const summaryId = useId();
  return (
    <>
      <p id={summaryId} className="text-xs text-slate-600">
        {summary}
      </p>
      {/* Its height kept from the start, so the section is its full size before the width is measured. */}
      <div ref={parentRef} className="mt-2 w-full" style={{ minHeight: TREND_HEIGHT }}>
        {width > 0 && <TrendLine points={points} width={width} band={band} labelledBy={`${titleId} ${summaryId}`} timeZone={timeZone} testId={testId} />}
      </div>
      {/* A table ignores the 1 px width sr-only gives it: its box does not. */}
      <div className="sr-only">
        <table>
          <caption>{name} over time</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.key}>
                <th scope="row">{formatDayTime(p.at, timeZone)}</th>
                <td>{p.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
