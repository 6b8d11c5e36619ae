import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { useId } from 'react';
import type { TReport, TReportColumn } from '#domain/reports';
import { seriesColour } from '../../components/charts/chart-colors.ts';
import { ChartLegend } from '../../components/charts/chart-legend.tsx';
import { chartOf, type TChartRow } from './report-chart-data.ts';
import { formatReportValue } from './report-format.ts';

const HEIGHT = 260;
const MARGIN = { top: 8, right: 8, bottom: 28 };
/** About one character of an 11 px label. */
const CHAR_PX = 6.5;
/** Room for one axis label ('Mar 30', 'Lab review') and the gap beside it. */
const TICK_SPACING_PX = 72;
const MAX_BAR_PX = 48;

/** What a glance at the chart gives: what it draws, and each series' highest bar. */
function summaryOf(series: TReportColumn[], rows: TChartRow[]): string {
  const parts = series.map((s) => {
    const top = rows.reduce<TChartRow | null>((best, row) => {
      const value = row.values[s.key] ?? null;
      return value !== null && (best === null || value > (best.values[s.key] ?? -Infinity)) ? row : best;
    }, null);
    return top ? `${s.label}: highest ${formatReportValue(top.values[s.key] ?? null, s.kind)} (${top.label}).` : `${s.label}: no figures.`;
  });
  const groups = `${rows.length} ${rows.length === 1 ? 'group' : 'groups'} of bars, one per row of the table`;
  return `${series.map((s) => s.label).join(', ')}; ${groups}. ${parts.join(' ')} The table below has every figure.`;
}

/**
 * A report's chart (issue 34): grouped bars, one group per row of the table, one bar per
 * series, in the PDF's colours. The SVG is one image named by a summary; the table under it is
 * the full data, so the bars carry tooltips only for the pointer.
 */
export function ReportChart({ report, titleId }: { report: TReport; titleId: string }) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const summaryId = useId();
  const { series, rows } = chartOf(report);
  const drawable = series.length > 0 && rows.some((row) => series.some((s) => (row.values[s.key] ?? 0) > 0));
  if (!drawable) {
    return (
      <p data-testid="report-chart-empty" className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-slate-600">
        Nothing to draw: the charted figures are all zero or missing. The table has every figure.
      </p>
    );
  }
  return (
    <>
      <p id={summaryId} className="sr-only">
        {summaryOf(series, rows)}
      </p>
      <div ref={parentRef} className="mt-4 w-full">
        {width > 0 && <Bars series={series} rows={rows} width={width} labelledBy={`${titleId} ${summaryId}`} />}
      </div>
      <ChartLegend label="Series" className="mt-3" items={series.map((s, i) => ({ key: s.key, label: s.label, swatch: seriesColour(i).swatch }))} />
    </>
  );
}

/** The row labels that fit the width (one every `every` rows), counted back from the last so the latest is always named. */
function rowTicks(rows: TChartRow[], innerWidth: number): { ticks: number[]; every: number } {
  const fit = Math.max(2, Math.floor(innerWidth / TICK_SPACING_PX));
  const every = Math.max(1, Math.ceil(rows.length / fit));
  const ticks: number[] = [];
  for (let i = rows.length - 1; i >= 0; i -= every) ticks.unshift(rows[i]!.index);
  return { ticks, every };
}

const clip = (text: string, chars: number) => (text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`);

function Bars({ series, rows, width, labelledBy }: { series: TReportColumn[]; rows: TChartRow[]; width: number; labelledBy: string }) {
  const kind = series[0]!.kind;
  const most = Math.max(0, ...rows.flatMap((row) => series.map((s) => row.values[s.key] ?? 0)));
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  // As many ticks as the axis has room for, and the top rounded to the last, so the tallest bar stays under it.
  const tickCount = kind === 'count' ? Math.min(5, Math.max(1, Math.ceil(most))) : 5;
  const yScale = scaleLinear<number>({ domain: [0, most > 0 ? most : 1], range: [innerHeight, 0], nice: tickCount });
  // Whole counts only: no '0.5' visits on the axis of a quiet week.
  const yTicks = yScale.ticks(tickCount).filter((v) => kind !== 'count' || Number.isInteger(v));
  const yLabels = yTicks.map((v) => formatReportValue(v, kind));
  const left = Math.ceil(Math.max(...yLabels.map((l) => l.length)) * CHAR_PX) + 10;
  const innerWidth = Math.max(0, width - left - MARGIN.right);
  const groupScale = scaleBand<number>({ domain: rows.map((r) => r.index), range: [0, innerWidth], padding: innerWidth < 400 ? 0.15 : 0.25 });
  const barScale = scaleBand<string>({ domain: series.map((s) => s.key), range: [0, groupScale.bandwidth()], padding: series.length > 1 ? 0.08 : 0 });
  // A few rows would make slabs of bars: each stays a bar, centred in its place.
  const barWidth = Math.max(1, Math.min(MAX_BAR_PX, barScale.bandwidth()));
  const { ticks, every } = rowTicks(rows, innerWidth);
  // A label may take the room of the rows it stands for, less a gap.
  const tickChars = Math.max(4, Math.floor((groupScale.step() * every) / CHAR_PX) - 2);
  const byIndex = new Map(rows.map((r) => [r.index, r]));
  const label = { fontSize: 11, fill: '#475569', fontFamily: 'inherit' } as const;

  return (
    <svg width={width} height={HEIGHT} role="img" aria-labelledby={labelledBy} className="block overflow-visible">
      <Group left={left} top={MARGIN.top}>
        {yTicks.map((v) => (
          <line key={v} x1={0} x2={innerWidth} y1={yScale(v)} y2={yScale(v)} className="stroke-slate-200" strokeDasharray={v === 0 ? undefined : '3 3'} />
        ))}
        {rows.map((row) => (
          <Group key={row.index} left={groupScale(row.index) ?? 0}>
            {series.map((s, i) => {
              const value = row.values[s.key] ?? null;
              // A missing figure draws no bar; the table says 'no data'.
              if (value === null || value <= 0) return null;
              const y = yScale(value);
              return (
                <rect
                  key={s.key}
                  data-testid="report-bar"
                  data-series={s.key}
                  x={(barScale(s.key) ?? 0) + (barScale.bandwidth() - barWidth) / 2}
                  y={y}
                  width={barWidth}
                  height={Math.max(1, innerHeight - y)}
                  className={seriesColour(i).fill}
                >
                  <title>{`${row.label}, ${s.label}: ${formatReportValue(value, s.kind)}`}</title>
                </rect>
              );
            })}
          </Group>
        ))}
        <AxisLeft
          scale={yScale}
          tickValues={yTicks}
          tickFormat={(v) => formatReportValue(Number(v), kind)}
          hideAxisLine
          hideTicks
          tickLabelProps={() => ({ ...label, textAnchor: 'end', dx: -4, dy: '0.33em' })}
        />
        <AxisBottom
          top={innerHeight}
          scale={groupScale}
          tickValues={ticks}
          tickFormat={(index) => clip(byIndex.get(index)?.shortLabel ?? '', tickChars)}
          stroke="#94a3b8"
          tickStroke="#94a3b8"
          tickLength={4}
          tickLabelProps={() => ({ ...label, textAnchor: 'middle' })}
        />
      </Group>
    </svg>
  );
}
