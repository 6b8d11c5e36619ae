import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleLinear, scaleTime } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { useEffect, useId, useRef } from 'react';
import type { TLabResult } from '#domain/labs';
import { useLabTrend, type TLabTrendPoint } from '../../api/labs/lab-trend.ts';
import { formatDate, formatDayTime, formatMonthDay } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { FLAG_WORDS, flagTone, formatNumber, formatReference } from './lab-format.ts';

const HEIGHT = 180;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 44 };
const POINT_FILL = { critical: 'fill-red-700', abnormal: 'fill-amber-500', normal: 'fill-blue-700' } as const;

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
      <div ref={parentRef} className="mt-2 w-full" style={{ minHeight: HEIGHT }}>
        {width > 0 && <Line points={points} width={width} range={range} labelledBy={`${titleId} ${summaryId}`} timeZone={timeZone} />}
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

function Line({
  points,
  width,
  range,
  labelledBy,
  timeZone,
}: {
  points: TLabTrendPoint[];
  width: number;
  range: TLabResult['range'];
  labelledBy: string;
  timeZone: string;
}) {
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const times = points.map((p) => new Date(p.at));
  const values = [...points.map((p) => p.value), ...(range ? [range.low, range.high].filter((v): v is number => v !== null) : [])];
  // A little room at each end, so the first and last points stand clear of the axes.
  const xScale = scaleTime<number>({ domain: [times[0]!, times.at(-1)!], range: [8, Math.max(8, innerWidth - 8)] });
  const yScale = scaleLinear<number>({ domain: [Math.min(...values), Math.max(...values)], range: [innerHeight, 0], nice: true });
  const label = { fontSize: 11, fill: '#475569', fontFamily: 'inherit' } as const;
  const bandTop = range?.high !== null && range?.high !== undefined ? yScale(range.high) : 0;
  const bandBottom = range?.low !== null && range?.low !== undefined ? yScale(range.low) : innerHeight;
  return (
    <svg width={width} height={HEIGHT} role="img" aria-labelledby={labelledBy} className="block overflow-visible">
      <Group left={MARGIN.left} top={MARGIN.top}>
        {range && (range.low !== null || range.high !== null) && (
          <rect
            x={0}
            width={innerWidth}
            y={bandTop}
            height={Math.max(0, bandBottom - bandTop)}
            className="fill-green-50 stroke-green-200"
            data-testid="lab-trend-band"
          />
        )}
        <LinePath<TLabTrendPoint>
          data={points}
          x={(p) => xScale(new Date(p.at))}
          y={(p) => yScale(p.value)}
          className="stroke-slate-500"
          strokeWidth={2}
          fill="none"
        />
        {points.map((p) => (
          <circle
            key={`${p.orderId}-${p.at}`}
            data-testid="lab-trend-point"
            data-flag={p.flag ?? ''}
            cx={xScale(new Date(p.at))}
            cy={yScale(p.value)}
            r={4.5}
            className={`${POINT_FILL[p.flag ? flagTone(p.flag) : 'normal']} stroke-white`}
            strokeWidth={1.5}
          />
        ))}
        <AxisLeft scale={yScale} numTicks={4} stroke="#cbd5e1" tickStroke="#cbd5e1" tickLabelProps={() => ({ ...label, textAnchor: 'end', dx: -4, dy: 3 })} />
        <AxisBottom
          top={innerHeight}
          scale={xScale}
          numTicks={Math.max(2, Math.min(5, Math.floor(innerWidth / 90)))}
          stroke="#cbd5e1"
          tickStroke="#cbd5e1"
          tickFormat={(d) => formatMonthDay(d as Date, timeZone)}
          tickLabelProps={() => ({ ...label, textAnchor: 'middle' })}
        />
      </Group>
    </svg>
  );
}
