import { z } from 'zod';
import { optionalText } from './text.ts';
import type { TUnitSystem } from './units.ts';

/**
 * Vital signs (issue 51; docs/decisions/clinical-chart.md), one table for every rule: each sign's
 * LOINC code and UCUM unit (what FHIR's vital-signs profiles name), the canonical unit it is
 * stored in, the range a human value can be in (outside it is a typo, refused with the field's
 * name: 1,200 bpm is never stored), and the adult normal range outside which it is flagged, as
 * lab results are. Temperature, weight and height are entered and shown in the clinic's units.
 */

export const VITAL_SIGNS = ['systolic', 'diastolic', 'heartRate', 'respiratoryRate', 'temperature', 'spo2', 'weight', 'height', 'pain'] as const;
export type TVitalSign = (typeof VITAL_SIGNS)[number];
export const VITALS_STATUSES = ['final', 'entered_in_error'] as const;
/** The signs with a trend: the entered ones and BMI, computed from weight and height. */
export type TVitalSeries = TVitalSign | 'bmi';

interface TVitalDefinition {
  label: string;
  loinc: string;
  /** The canonical unit, as UCUM writes it (stored, and sent to FHIR). */
  ucum: string;
  /** The canonical unit as people read it. */
  unit: string;
  /** What a person can measure, in the canonical unit: outside it is refused. */
  plausible: readonly [number, number];
  /** The adult normal range, in the canonical unit: outside it is flagged; null where no single range applies. */
  normal: readonly [number, number] | null;
  /** Decimals kept and shown. */
  decimals: number;
}

export const VITAL_DEFINITIONS: Record<TVitalSeries, TVitalDefinition> = {
  systolic: { label: 'Systolic blood pressure', loinc: '8480-6', ucum: 'mm[Hg]', unit: 'mmHg', plausible: [40, 300], normal: [90, 139], decimals: 0 },
  diastolic: { label: 'Diastolic blood pressure', loinc: '8462-4', ucum: 'mm[Hg]', unit: 'mmHg', plausible: [20, 200], normal: [60, 89], decimals: 0 },
  heartRate: { label: 'Heart rate', loinc: '8867-4', ucum: '/min', unit: 'bpm', plausible: [20, 300], normal: [60, 100], decimals: 0 },
  respiratoryRate: { label: 'Respiratory rate', loinc: '9279-1', ucum: '/min', unit: 'breaths/min', plausible: [4, 80], normal: [12, 20], decimals: 0 },
  temperature: { label: 'Temperature', loinc: '8310-5', ucum: 'Cel', unit: '°C', plausible: [30, 45], normal: [36.1, 37.8], decimals: 1 },
  spo2: { label: 'Oxygen saturation', loinc: '59408-5', ucum: '%', unit: '%', plausible: [50, 100], normal: [95, 100], decimals: 0 },
  weight: { label: 'Weight', loinc: '29463-7', ucum: 'kg', unit: 'kg', plausible: [0.3, 500], normal: null, decimals: 1 },
  height: { label: 'Height', loinc: '8302-2', ucum: 'cm', unit: 'cm', plausible: [20, 272], normal: null, decimals: 1 },
  pain: { label: 'Pain score', loinc: '72514-3', ucum: '{score}', unit: '/10', plausible: [0, 10], normal: [0, 3], decimals: 0 },
  bmi: { label: 'Body mass index', loinc: '39156-5', ucum: 'kg/m2', unit: 'kg/m²', plausible: [5, 150], normal: [18.5, 24.9], decimals: 1 },
};

/** A sign shown in another unit than it is stored in: the unit, and the way there and back. */
interface TDisplayUnit {
  unit: string;
  ucum: string;
  toCanonical: (value: number) => number;
  fromCanonical: (value: number) => number;
  decimals: number;
}

/** The US customary units of the signs that have them; every other sign (and metric) is shown as stored. */
const US_UNITS: Partial<Record<TVitalSeries, TDisplayUnit>> = {
  temperature: { unit: '°F', ucum: '[degF]', toCanonical: (f) => ((f - 32) * 5) / 9, fromCanonical: (c) => (c * 9) / 5 + 32, decimals: 1 },
  weight: { unit: 'lb', ucum: '[lb_av]', toCanonical: (lb) => lb * 0.45359237, fromCanonical: (kg) => kg / 0.45359237, decimals: 1 },
  height: { unit: 'in', ucum: '[in_i]', toCanonical: (inch) => inch * 2.54, fromCanonical: (cm) => cm / 2.54, decimals: 1 },
};

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The unit a sign is entered and shown in, in the clinic's unit system. */
export function displayUnit(sign: TVitalSeries, system: TUnitSystem): { unit: string; decimals: number } {
  const us = system === 'us' ? US_UNITS[sign] : undefined;
  return us ?? VITAL_DEFINITIONS[sign];
}

/** A stored value as the clinic reads it. */
export function toDisplay(sign: TVitalSeries, canonical: number, system: TUnitSystem): number {
  const us = system === 'us' ? US_UNITS[sign] : undefined;
  return us ? round(us.fromCanonical(canonical), us.decimals) : canonical;
}

/** A value entered in the clinic's units, in the canonical unit, kept to the sign's precision (a tenth of a degree, of a kilogram). */
export function toCanonical(sign: TVitalSign, entered: number, system: TUnitSystem): number {
  const us = system === 'us' ? US_UNITS[sign] : undefined;
  return round(us ? us.toCanonical(entered) : entered, Math.max(VITAL_DEFINITIONS[sign].decimals, us ? 2 : 0));
}

/** BMI from weight (kg) and height (cm), when both are known. */
export function bmiOf(weightKg: number | null, heightCm: number | null): number | null {
  if (weightKg === null || heightCm === null) return null;
  return round(weightKg / (heightCm / 100) ** 2, 1);
}

export type TVitalFlag = 'low' | 'high' | null;

/** Low or high against the sign's adult normal range, as lab results are flagged; null inside it or where none applies. */
export function vitalFlag(sign: TVitalSeries, canonical: number): TVitalFlag {
  const normal = VITAL_DEFINITIONS[sign].normal;
  if (!normal) return null;
  return canonical < normal[0] ? 'low' : canonical > normal[1] ? 'high' : null;
}

const signValue = () => z.number({ error: 'Must be a number' }).finite().nullish();
const SIGN_SHAPE = {
  systolic: signValue(),
  diastolic: signValue(),
  heartRate: signValue(),
  respiratoryRate: signValue(),
  temperature: signValue(),
  spo2: signValue(),
  weight: signValue(),
  height: signValue(),
  pain: signValue(),
} satisfies Record<TVitalSign, z.ZodType>;

/**
 * POST /api/patients/{id}/vitals: a set of signs taken at one time, each optional but one at
 * least, in the units of `unitSystem` (the clinic's, or metric when not sent). Each entered value
 * is checked against what a person can measure, in the unit it was entered in, and the
 * systolic pressure must be above the diastolic.
 */
export const ZVitalsInput = z
  .object({
    takenAt: z.string().datetime({ offset: true, error: 'Invalid date and time' }).optional(),
    appointmentId: z.string().uuid('Invalid appointment id').nullish(),
    unitSystem: z.enum(['metric', 'us']).optional(),
    /** 'entered_in_error' (with a reason, on a change) withdraws a set taken or typed wrong; a correction is a new set. */
    status: z.enum(VITALS_STATUSES, { error: `Expected one of ${VITALS_STATUSES.join(', ')}` }).default('final'),
    note: optionalText(2_000),
    ...SIGN_SHAPE,
  })
  .strict()
  .transform((input, ctx) => {
    const system: TUnitSystem = input.unitSystem ?? 'metric';
    const values = {} as Record<TVitalSign, number | null>;
    for (const sign of VITAL_SIGNS) {
      const entered = input[sign];
      if (entered === null || entered === undefined) {
        values[sign] = null;
        continue;
      }
      const canonical = toCanonical(sign, entered, system);
      const [low, high] = VITAL_DEFINITIONS[sign].plausible;
      if (canonical < low || canonical > high || (sign === 'pain' && !Number.isInteger(entered))) {
        const { unit } = displayUnit(sign, system);
        const [shownLow, shownHigh] = [toDisplay(sign, low, system), toDisplay(sign, high, system)];
        ctx.addIssue({ code: 'custom', path: [sign], message: `${VITAL_DEFINITIONS[sign].label} must be between ${shownLow} and ${shownHigh} ${unit}` });
      }
      values[sign] = canonical;
    }
    if (VITAL_SIGNS.every((sign) => values[sign] === null)) ctx.addIssue({ code: 'custom', path: ['body'], message: 'Enter at least one vital sign' });
    if (values.systolic !== null && values.diastolic !== null && values.systolic <= values.diastolic) {
      ctx.addIssue({ code: 'custom', path: ['diastolic'], message: 'The diastolic pressure must be below the systolic' });
    }
    return { takenAt: input.takenAt ?? null, appointmentId: input.appointmentId ?? null, note: input.note || null, status: input.status, values };
  });
export type TVitalsInput = z.output<typeof ZVitalsInput>;

/** A set of vital signs as the API shows it: canonical values, BMI computed, each value's flag. */
export const ZVitalsSet = z.object({
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  appointmentId: z.string().uuid().nullable(),
  takenAt: z.string(),
  status: z.enum(VITALS_STATUSES),
  state: z.enum(['draft', 'confirmed']),
  version: z.number().int(),
  recordedAt: z.string(),
  recordedById: z.string().uuid().nullable(),
  recordedByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedByName: z.string().nullable(),
  updatedAt: z.string(),
  note: z.string().nullable(),
  values: z.record(z.enum([...VITAL_SIGNS, 'bmi']), z.number().nullable()),
  flags: z.record(z.enum([...VITAL_SIGNS, 'bmi']), z.enum(['low', 'high']).nullable()),
});
export type TVitalsSet = z.infer<typeof ZVitalsSet>;

/** The values of a set, BMI included, and each one's flag. */
export function withComputed(values: Record<TVitalSign, number | null>): {
  values: Record<TVitalSeries, number | null>;
  flags: Record<TVitalSeries, TVitalFlag>;
} {
  // Only the signs: a row that holds more (its id, its time) gives no more.
  const all = Object.fromEntries([...VITAL_SIGNS.map((sign) => [sign, values[sign] ?? null]), ['bmi', bmiOf(values.weight, values.height)]]) as Record<
    TVitalSeries,
    number | null
  >;
  const flags = Object.fromEntries(
    Object.entries(all).map(([sign, value]) => [sign, value === null ? null : vitalFlag(sign as TVitalSeries, value)]),
  ) as Record<TVitalSeries, TVitalFlag>;
  return { values: all, flags };
}

/** PUT /api/patients/{id}/vitals/{entryId}: a set's note, or its withdrawal (entered_in_error, with a reason); values are corrected by a new set. */
export const ZVitalsChange = z
  .object({ status: z.enum(VITALS_STATUSES).optional(), note: optionalText(2_000), version: z.number().int().optional(), reason: optionalText(500) })
  .strict();

/** GET /api/patients/{id}/vitals/trend?sign=: one sign's values over time, oldest first (ten years and more stay one small answer). */
export const ZVitalTrendQuery = z.object({ sign: z.enum([...VITAL_SIGNS, 'bmi']), from: z.string().datetime({ offset: true }).optional() }).strict();
export const ZVitalTrendPoint = z.object({ takenAt: z.string(), value: z.number(), flag: z.enum(['low', 'high']).nullable() });
export type TVitalTrendPoint = z.infer<typeof ZVitalTrendPoint>;
