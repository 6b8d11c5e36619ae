import { displayUnit, toDisplay, VITAL_DEFINITIONS, type TVitalSeries, type TVitalsSet } from '#domain/vital-signs';
import type { TUnitSystem } from '#domain/units';

/** The signs in the order a nurse reads them out, BMI after height. */
export const SHOWN_SIGNS: readonly TVitalSeries[] = [
  'systolic',
  'diastolic',
  'heartRate',
  'respiratoryRate',
  'temperature',
  'spo2',
  'weight',
  'height',
  'bmi',
  'pain',
];

/** Short names for the grid and the trend buttons. */
export const SIGN_SHORT: Record<TVitalSeries, string> = {
  systolic: 'Systolic',
  diastolic: 'Diastolic',
  heartRate: 'Heart rate',
  respiratoryRate: 'Resp. rate',
  temperature: 'Temp.',
  spo2: 'SpO₂',
  weight: 'Weight',
  height: 'Height',
  bmi: 'BMI',
  pain: 'Pain',
};

/** A stored value in the clinic's unit, with its unit: '98.6 °F', '120 mmHg'. */
export function vitalText(sign: TVitalSeries, canonical: number, system: TUnitSystem): string {
  const { unit } = displayUnit(sign, system);
  return `${toDisplay(sign, canonical, system)} ${unit}`;
}

/** A set in one line: 'BP 120/80 mmHg · HR 72 bpm · …', with the flagged values marked. */
export function setSummary(set: TVitalsSet, system: TUnitSystem): string {
  const v = set.values;
  const flag = (sign: TVitalSeries) => (set.flags[sign] ? ` (${set.flags[sign]})` : '');
  const parts = [
    v.systolic !== null && v.diastolic !== null ? `BP ${v.systolic}/${v.diastolic} mmHg${flag('systolic') || flag('diastolic')}` : null,
    ...SHOWN_SIGNS.filter((s) => s !== 'systolic' && s !== 'diastolic' && v[s] !== null && v[s] !== undefined).map(
      (s) => `${SIGN_SHORT[s]} ${vitalText(s, v[s]!, system)}${flag(s)}`,
    ),
  ];
  return parts.filter(Boolean).join(' · ');
}

export const signLabel = (sign: TVitalSeries) => VITAL_DEFINITIONS[sign].label;
