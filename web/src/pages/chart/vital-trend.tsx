import { useParentSize } from '@visx/responsive';
import { useId } from 'react';
import { formatDate, formatDayTime } from '#domain/clinic-time';
import type { TUnitSystem } from '#domain/units';
import { displayUnit, toDisplay, VITAL_DEFINITIONS, type TVitalSeries } from '#domain/vital-signs';
import { useVitalTrend } from '../../api/chart/vitals.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { TREND_HEIGHT, TrendLine } from '../../components/trend/trend-line.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { signLabel, vitalText } from './vital-format.ts';

/**
 * One vital sign over time, with the lab trend's look: the normal range as a band, flagged values
 * amber; in the clinic's units. The figures follow as a table for screen readers.
 */
export function VitalTrend({ patientId, sign, system, timeZone }: { patientId: string; sign: TVitalSeries; system: TUnitSystem; timeZone: string }) {
  const { data, isPending, isError, error, refetch } = useVitalTrend(patientId, sign);
  const titleId = useId();
  const summaryId = useId();
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const name = signLabel(sign);
  const normal = VITAL_DEFINITIONS[sign].normal;
  const band = normal ? { low: toDisplay(sign, normal[0], system), high: toDisplay(sign, normal[1], system) } : null;
  return (
    <section aria-labelledby={titleId} data-testid="vital-trend" data-sign={sign} className="rounded-md border bg-white p-3">
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {name} over time ({displayUnit(sign, system).unit})
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
        <p data-testid="vital-trend-empty" className="mt-2 rounded-md border border-dashed p-4 text-center text-sm text-slate-600">
          {data.length === 0 ? `No ${name.toLowerCase()} recorded for this patient.` : `One ${name.toLowerCase()} recorded so far: a trend needs two.`}
        </p>
      ) : (
        <>
          <p id={summaryId} className="text-xs text-slate-600">
            {data.length} values from {formatDate(data[0]!.takenAt, timeZone)} to {formatDate(data.at(-1)!.takenAt, timeZone)}: latest{' '}
            {vitalText(sign, data.at(-1)!.value, system)}
            {normal ? `; normal ${band!.low}–${band!.high}` : ''}.
          </p>
          <div ref={parentRef} className="mt-2 w-full" style={{ minHeight: TREND_HEIGHT }}>
            {width > 0 && (
              <TrendLine
                points={data.map((p) => ({
                  key: p.takenAt,
                  at: p.takenAt,
                  value: toDisplay(sign, p.value, system),
                  tone: p.flag ? 'abnormal' : 'normal',
                  flag: p.flag,
                }))}
                width={width}
                band={band}
                labelledBy={`${titleId} ${summaryId}`}
                timeZone={timeZone}
                testId="vital-trend"
              />
            )}
          </div>
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
                {data.map((p) => (
                  <tr key={p.takenAt}>
                    <th scope="row">{formatDayTime(p.takenAt, timeZone)}</th>
                    <td>
                      {vitalText(sign, p.value, system)}
                      {p.flag ? ` (${p.flag})` : ''}
                    </td>
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
