import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { BarStack } from '@visx/shape';
import { format, parseISO } from 'date-fns';
import { useId } from 'react';
import type { TAppointmentDay } from '#domain/analytics';
import type { TAppointmentStatus } from '#domain/appointments';
import { STATUS_LABELS } from '../../components/appointments/appointment-format.ts';
import { APPOINTMENT_STATUS_COLOURS } from '../../components/charts/chart-colors.ts';
import { ChartLegend } from '../../components/charts/chart-legend.tsx';

/** In the order the day goes: booked, arrived, seen, done, then those that did not happen. */
const STATUSES = Object.keys(STATUS_LABELS) as TAppointmentStatus[];

const HEIGHT = 240;
const MARGIN = { top: 8, right: 8, bottom: 28, left: 36 };
/** Room for one date label ('Jun 30') and the gap beside it. */
const TICK_SPACING_PX = 64;

const shortDate = (date: string) => format(parseISO(date), 'MMM d');
const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d');

/** The day labels that fit the width, counted back from today so the last bar is always named. */
function dateTicks(days: TAppointmentDay[], innerWidth: number): string[] {
  const fit = Math.max(2, Math.floor(innerWidth / TICK_SPACING_PX));
  const step = Math.max(1, Math.ceil(days.length / fit));
  const ticks: string[] = [];
  for (let i = days.length - 1; i >= 0; i -= step) ticks.unshift(days[i]!.date);
  return ticks;
}

/** One sentence with the figures a glance at the chart gives. */
function summaryOf(days: TAppointmentDay[], totals: Record<TAppointmentStatus, number>, total: number): string {
  const busiest = days.reduce((a, b) => (b.total > a.total ? b : a));
  const parts = STATUSES.filter((s) => totals[s] > 0).map((s) => `${totals[s]} ${STATUS_LABELS[s].toLowerCase()}`);
  return (
    `${total} appointments from ${shortDate(days[0]!.date)} to ${shortDate(days.at(-1)!.date)}: ${parts.join(', ')}. ` +
    `Busiest day ${longDate(busiest.date)} with ${busiest.total}.`
  );
}

/**
 * Appointments per clinic day over the last 30 days, stacked by status. The SVG is one image
 * with a summary for its name; the full figures follow as a table for screen readers, and each
 * bar carries a tooltip for the pointer.
 */
export function AppointmentsPerDayChart({ days }: { days: TAppointmentDay[] }) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const titleId = useId();
  const summaryId = useId();
  const totals = Object.fromEntries(STATUSES.map((s) => [s, days.reduce((n, d) => n + d.counts[s], 0)])) as Record<TAppointmentStatus, number>;
  const total = days.reduce((n, d) => n + d.total, 0);

  return (
    <section aria-labelledby={titleId} data-testid="appointments-chart" className="rounded-lg border bg-white p-4 shadow-sm sm:p-6">
      <h3 id={titleId} className="text-base font-semibold text-slate-900">
        Appointments per day
      </h3>
      <p className="text-sm text-slate-600">
        Last {days.length} days ({shortDate(days[0]!.date)} – {shortDate(days.at(-1)!.date)}), by status
      </p>
      {total === 0 ? (
        <p data-testid="appointments-chart-empty" className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-slate-600">
          No appointments in the last {days.length} days.
        </p>
      ) : (
        <>
          <p id={summaryId} className="sr-only">
            {summaryOf(days, totals, total)}
          </p>
          <div ref={parentRef} className="mt-4 w-full">
            {width > 0 && <Bars days={days} width={width} titleId={titleId} summaryId={summaryId} />}
          </div>
          <ChartLegend
            label="Appointment statuses, with totals"
            className="mt-3"
            items={STATUSES.map((s) => ({ key: s, label: STATUS_LABELS[s], swatch: APPOINTMENT_STATUS_COLOURS[s].swatch, value: totals[s] }))}
          />
          {/* A table ignores the 1 px width sr-only gives it: its box does not. */}
          <div className="sr-only">
            <table>
              <caption>Appointments per day by status</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  {STATUSES.map((s) => (
                    <th key={s} scope="col">
                      {STATUS_LABELS[s]}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {days.map((day) => (
                  <tr key={day.date}>
                    <th scope="row">{longDate(day.date)}</th>
                    {STATUSES.map((s) => (
                      <td key={s}>{day.counts[s]}</td>
                    ))}
                    <td>{day.total}</td>
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

function Bars({ days, width, titleId, summaryId }: { days: TAppointmentDay[]; width: number; titleId: string; summaryId: string }) {
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const xScale = scaleBand<string>({ domain: days.map((d) => d.date), range: [0, innerWidth], padding: innerWidth < 400 ? 0.15 : 0.25 });
  const most = Math.max(1, ...days.map((d) => d.total));
  const yScale = scaleLinear<number>({ domain: [0, most], range: [innerHeight, 0], nice: true });
  // Whole appointments only: no '0.5' on the axis of a small clinic.
  const yTicks = yScale.ticks(Math.min(5, most)).filter((v) => Number.isInteger(v));
  const label = { fontSize: 11, fill: '#475569', fontFamily: 'inherit' } as const;

  return (
    <svg width={width} height={HEIGHT} role="img" aria-labelledby={`${titleId} ${summaryId}`} className="block overflow-visible">
      <Group left={MARGIN.left} top={MARGIN.top}>
        {yTicks.map((v) => (
          <line key={v} x1={0} x2={innerWidth} y1={yScale(v)} y2={yScale(v)} className="stroke-slate-200" strokeDasharray={v === 0 ? undefined : '3 3'} />
        ))}
        <BarStack<TAppointmentDay, TAppointmentStatus>
          data={days}
          keys={STATUSES}
          value={(d, key) => d.counts[key]}
          x={(d) => d.date}
          xScale={xScale}
          yScale={yScale}
          color={() => ''}
        >
          {(stacks) =>
            stacks.map((stack) =>
              stack.bars.map(
                (bar) =>
                  bar.height > 0 && (
                    <rect
                      key={`${stack.key}-${bar.index}`}
                      data-testid="appointment-bar"
                      data-status={stack.key}
                      x={bar.x}
                      y={bar.y}
                      width={bar.width}
                      height={bar.height}
                      className={`${APPOINTMENT_STATUS_COLOURS[stack.key].fill} stroke-white`}
                      strokeWidth={bar.height > 2 ? 1 : 0}
                    >
                      <title>{`${longDate(bar.bar.data.date)}: ${bar.bar.data.counts[stack.key]} ${STATUS_LABELS[stack.key].toLowerCase()}`}</title>
                    </rect>
                  ),
              ),
            )
          }
        </BarStack>
        <AxisLeft
          scale={yScale}
          tickValues={yTicks}
          tickFormat={(v) => String(v)}
          hideAxisLine
          hideTicks
          tickLabelProps={() => ({ ...label, textAnchor: 'end', dx: -4, dy: '0.33em' })}
        />
        <AxisBottom
          top={innerHeight}
          scale={xScale}
          tickValues={dateTicks(days, innerWidth)}
          tickFormat={(d) => shortDate(d)}
          stroke="#94a3b8"
          tickStroke="#94a3b8"
          tickLength={4}
          tickLabelProps={() => ({ ...label, textAnchor: 'middle' })}
        />
      </Group>
    </svg>
  );
}
