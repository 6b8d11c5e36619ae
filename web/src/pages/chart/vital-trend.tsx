import { formatDate } from '#domain/clinic-time';
import type { TUnitSystem } from '#domain/units';
import { displayUnit, toDisplay, VITAL_DEFINITIONS, type TVitalSeries } from '#domain/vital-signs';
import { useVitalTrend } from '../../api/chart/vitals.ts';
import { TrendSection } from '../../components/trend/trend-section.tsx';
import { signLabel, vitalText } from './vital-format.ts';

/**
 * One vital sign over time, with the lab trend's look: the normal range as a band, flagged values
 * amber; in the clinic's units.
 */
export function VitalTrend({ patientId, sign, system, timeZone }: { patientId: string; sign: TVitalSeries; system: TUnitSystem; timeZone: string }) {
  const query = useVitalTrend(patientId, sign);
  const name = signLabel(sign);
  const normal = VITAL_DEFINITIONS[sign].normal;
  const band = normal ? { low: toDisplay(sign, normal[0], system), high: toDisplay(sign, normal[1], system) } : null;
  return (
    <TrendSection
      name={name}
      unit={` (${displayUnit(sign, system).unit})`}
      query={query}
      fewer={{ none: `No ${name.toLowerCase()} recorded for this patient.`, one: `One ${name.toLowerCase()} recorded so far: a trend needs two.` }}
      figure={() => {
        const data = query.data!;
        return {
          summary: `${data.length} values from ${formatDate(data[0]!.takenAt, timeZone)} to ${formatDate(data.at(-1)!.takenAt, timeZone)}: latest ${vitalText(sign, data.at(-1)!.value, system)}${band ? `; normal ${band.low}–${band.high}` : ''}.`,
          points: data.map((p) => ({
            key: p.takenAt,
            at: p.takenAt,
            value: toDisplay(sign, p.value, system),
            tone: p.flag ? 'abnormal' : 'normal',
            flag: p.flag,
            text: `${vitalText(sign, p.value, system)}${p.flag ? ` (${p.flag})` : ''}`,
          })),
          band,
        };
      }}
      timeZone={timeZone}
      testId="vital-trend"
      data={{ 'data-sign': sign }}
    />
  );
}
