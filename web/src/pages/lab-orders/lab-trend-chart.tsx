import { useParentSize } from '@visx/responsive';
import { useEffect, useId, useRef } from 'react';
import type { TLabResult } from '#domain/labs';
import { useLabTrend, type TLabTrendPoint } from '../../api/labs/lab-trend.ts';
import { formatDate, formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { TREND_HEIGHT, TrendLine } from '../../components/trend/trend-line.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { FLAG_WORDS, flagTone, formatNumber, formatReference } from './lab-format.ts';

interface TTrendProps {
  orderId: string;
  analyteId: string;
  name: string;
  unit: string | null;
  /** The reference range of this order's result, drawn as a band. */
  range: TLabResult['range'];
  timeZone: string;
}

/**
 * One analyte's values for the order's patient over time (the latest 50), as a small line with
 * the reference band; critical points red, abnormal amber. The figures follow as a table for
 * screen readers. Fewer than two values make no trend, and it says so.
 */
export function LabTrendChart({ orderId, analyteId, name, unit, range, timeZone }: TTrendProps) {
  const { data, isPending, isError, error, refetch } = useLabTrend(orderId, analyteId);
  const titleId = useId();
  const section = useRef<HTMLElement>(null);
  // Asked for under the results: brought into view in the scrolling dialog. (Braces: a browser's
  // scrollIntoView may answer a promise, which React would take for the effect's cleanup.)
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'nearest' });
  }, [analyteId, data]);
  return (
    <section ref={section} aria-labelledby={titleId} data-testid="lab-trend" className="rounded-md border bg-white p-3">
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {name} over time{unit ? ` (${unit})` : ''}
      </h3>
      {isPending ? (
        <div>
          <p role="status" className="sr-only">
            Loading the trend of {name}
          </p>
          <Skeleton className="mt-2 h-40 w-full" aria-hidden="true" />
        </div>
      ) : isError ? (
        <ErrorState title={`Could not load the trend of ${name}`} error={error} onRetry={() => void refetch()} />
      ) : data.length < 2 ? (
        <p data-testid="lab-trend-empty" className="mt-2 rounded-md border border-dashed p-4 text-center text-sm text-slate-600">
          {data.length === 0 ? `No earlier ${name} results for this patient.` : `This is the only ${name} result for this patient so far: a trend needs two.`}
        </p>
      ) : (
        <TrendBody points={data} titleId={titleId} name={name} unit={unit} range={range} timeZone={timeZone} />
      )}
    </section>
  );
}

function TrendBody({
  points,
  titleId,
  name,
  unit,
  range,
  timeZone,
}: { points: TLabTrendPoint[]; titleId: string } & Omit<TTrendProps, 'orderId' | 'analyteId'>) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const summaryId = useId();
  const shown = (p: TLabTrendPoint) => `${formatNumber(p.value)}${unit ? ` ${unit}` : ''}${p.flag ? ` (${p.flag}, ${FLAG_WORDS[p.flag].toLowerCase()})` : ''}`;
  const first = points[0]!;
  const last = points.at(-1)!;
  const reference = formatReference(range);
  const summary = `${points.length} results from ${formatDate(first.at, timeZone)} to ${formatDate(last.at, timeZone)}: first ${shown(first)}, latest ${shown(last)}${reference ? `; reference range ${reference}` : ''}.`;
  return (
    <>
      <p id={summaryId} className="text-xs text-slate-600">
        {summary}
      </p>
      {/* Its height kept from the start, so the section is its full size before the width is measured. */}
      <div ref={parentRef} className="mt-2 w-full" style={{ minHeight: TREND_HEIGHT }}>
        {width > 0 && (
          <TrendLine
            points={points.map((p) => ({ key: `${p.orderId}-${p.at}`, at: p.at, value: p.value, tone: p.flag ? flagTone(p.flag) : 'normal', flag: p.flag }))}
            width={width}
            band={range}
            labelledBy={`${titleId} ${summaryId}`}
            timeZone={timeZone}
            testId="lab-trend"
          />
        )}
      </div>
      {/* A table ignores the 1 px width sr-only gives it: its box does not. */}
      <div className="sr-only">
        <table>
          <caption>{name} results over time</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={`${p.orderId}-${p.at}`}>
                <th scope="row">{formatDayTime(p.at, timeZone)}</th>
                <td>{shown(p)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
