import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scaleTime } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { formatDate, formatMonthDay } from '#domain/clinic-time';

export const TREND_HEIGHT = 180;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 44 };
const POINT_FILL = { critical: 'fill-red-700', abnormal: 'fill-amber-500', normal: 'fill-blue-700' } as const;
/** Beyond this span the axis names years, not days. */
const LONG_SPAN_MS = 300 * 24 * 60 * 60 * 1000;

/** A point of a trend: when, the value, how far out of range it is (its colour), and its flag for tests and tools. */
export interface TTrendLinePoint {
  key: string;
  at: string;
  value: number;
  tone: keyof typeof POINT_FILL;
  flag: string | null;
}

/**
 * The trend line of the app (lab results, vital signs): a small line over time with the normal
 * or reference range as a green band, out-of-range points amber and critical ones red. The
 * figures are for the eye; the caller adds the summary and the table screen readers read.
 */
export function TrendLine({
  points,
  width,
  band,
  labelledBy,
  timeZone,
  testId,
}: {
  points: TTrendLinePoint[];
  width: number;
  band: { low: number | null; high: number | null } | null;
  labelledBy: string;
  timeZone: string;
  /** The prefix of the points' and band's test ids ('lab-trend'). */
  testId: string;
}) {
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = TREND_HEIGHT - MARGIN.top - MARGIN.bottom;
  const times = points.map((p) => new Date(p.at));
  const values = [...points.map((p) => p.value), ...(band ? [band.low, band.high].filter((v): v is number => v !== null) : [])];
  // A little room at each end, so the first and last points stand clear of the axes.
  const xScale = scaleTime<number>({ domain: [times[0]!, times.at(-1)!], range: [8, Math.max(8, innerWidth - 8)] });
  const yScale = scaleLinear<number>({ domain: [Math.min(...values), Math.max(...values)], range: [innerHeight, 0], nice: true });
  const label = { fontSize: 11, fill: '#475569', fontFamily: 'inherit' } as const;
  const bandTop = band?.high !== null && band?.high !== undefined ? yScale(band.high) : 0;
  const bandBottom = band?.low !== null && band?.low !== undefined ? yScale(band.low) : innerHeight;
  const long = times.at(-1)!.getTime() - times[0]!.getTime() > LONG_SPAN_MS;
  return (
    <svg width={width} height={TREND_HEIGHT} role="img" aria-labelledby={labelledBy} className="block overflow-visible">
      <Group left={MARGIN.left} top={MARGIN.top}>
        {band && (band.low !== null || band.high !== null) && (
          <rect
            x={0}
            width={innerWidth}
            y={bandTop}
            height={Math.max(0, bandBottom - bandTop)}
            className="fill-green-50 stroke-green-200"
            data-testid={`${testId}-band`}
          />
        )}
        <LinePath<TTrendLinePoint>
          data={points}
          x={(p) => xScale(new Date(p.at))}
          y={(p) => yScale(p.value)}
          className="stroke-slate-500"
          strokeWidth={2}
          fill="none"
        />
        {points.map((p) => (
          <circle
            key={p.key}
            data-testid={`${testId}-point`}
            data-flag={p.flag ?? ''}
            cx={xScale(new Date(p.at))}
            cy={yScale(p.value)}
            r={points.length > 200 ? 2.5 : 4.5}
            className={`${POINT_FILL[p.tone]} stroke-white`}
            strokeWidth={1.5}
          />
        ))}
        <AxisLeft scale={yScale} numTicks={4} stroke="#cbd5e1" tickStroke="#cbd5e1" tickLabelProps={() => ({ ...label, textAnchor: 'end', dx: -4, dy: 3 })} />
        <AxisBottom
          top={innerHeight}
          scale={xScale}
          numTicks={Math.max(2, Math.min(5, Math.floor(innerWidth / (long ? 110 : 90))))}
          stroke="#cbd5e1"
          tickStroke="#cbd5e1"
          tickFormat={(d) => (long ? formatDate(d as Date, timeZone) : formatMonthDay(d as Date, timeZone))}
          tickLabelProps={() => ({ ...label, textAnchor: 'middle' })}
        />
      </Group>
    </svg>
  );
}
