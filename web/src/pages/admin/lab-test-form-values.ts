import { z, type ZodType } from 'zod';
import { LAB_SEXES } from '#domain/lab-flags';
import { LAB_MAX_ANALYTES, LAB_VALUE_KINDS, ZSaveLabTest, type TLabTest, type TSaveLabTest, type TSaveLabTestInput } from '#domain/labs';
import type { Path } from 'react-hook-form';

/** A reference range as the form holds it: every limit as typed, blank for none. */
export interface TRangeValues {
  sex: '' | (typeof LAB_SEXES)[number];
  ageFrom: string;
  ageTo: string;
  low: string;
  high: string;
  criticalLow: string;
  criticalHigh: string;
}

export interface TAnalyteValues {
  /** An analyte that exists keeps its id, so its past results stay linked to it. */
  id?: string | undefined;
  name: string;
  loinc: string;
  unit: string;
  kind: (typeof LAB_VALUE_KINDS)[number];
  ranges: TRangeValues[];
}

export interface TLabTestValues {
  name: string;
  loinc: string;
  isActive: boolean;
  analytes: TAnalyteValues[];
}

/** The most ranges an analyte takes (domain/labs.ts). */
export const MAX_RANGES = 12;
export const RANGE_LIMITS = ['low', 'high', 'criticalLow', 'criticalHigh'] as const;

export const blankRange = (): TRangeValues => ({ sex: '', ageFrom: '', ageTo: '', low: '', high: '', criticalLow: '', criticalHigh: '' });
export const blankAnalyte = (): TAnalyteValues => ({ name: '', loinc: '', unit: '', kind: 'numeric', ranges: [blankRange()] });

const text = (value: number | null) => (value === null ? '' : String(value));

/** The form's first values: the test as it is, or one empty analyte for a new test. */
export function labTestFormValues(test: TLabTest | null): TLabTestValues {
  if (!test) return { name: '', loinc: '', isActive: true, analytes: [blankAnalyte()] };
  return {
    name: test.name,
    loinc: test.loinc ?? '',
    isActive: test.isActive,
    analytes: test.analytes.map((a) => ({
      id: a.id,
      name: a.name,
      loinc: a.loinc ?? '',
      unit: a.unit ?? '',
      kind: a.kind,
      ranges: a.ranges.map((r) => ({
        sex: r.sex ?? '',
        ageFrom: text(r.ageFrom),
        ageTo: text(r.ageTo),
        low: text(r.low),
        high: text(r.high),
        criticalLow: text(r.criticalLow),
        criticalHigh: text(r.criticalHigh),
      })),
    })),
  };
}

/** A limit as typed: blank is none; anything else must read as a number. */
const ZTypedNumber = z.string().transform((value, ctx) => {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const number = Number(trimmed);
  if (!Number.isFinite(number)) {
    ctx.addIssue({ code: 'custom', message: 'Must be a number' });
    return z.NEVER;
  }
  return number;
});

/**
 * The form checked by the server's own schema (domain/labs.ts ZSaveLabTest): the typed limits
 * become numbers (or none), then the same rules hold (critical limits outside the normal ones,
 * an age band that ends after it starts, one name per analyte), each under its own input, at
 * the path the server would name (analytes.0.ranges.1.high).
 */
const ZTypedTest = z
  .object({
    name: z.string(),
    loinc: z.string(),
    isActive: z.boolean(),
    analytes: z.array(
      z.object({
        id: z.string().optional(),
        name: z.string(),
        loinc: z.string(),
        unit: z.string(),
        kind: z.enum(LAB_VALUE_KINDS),
        ranges: z.array(
          z.object({
            sex: z.string().transform((sex) => (sex === '' ? null : (sex as TRangeValues['sex']))),
            ageFrom: ZTypedNumber,
            ageTo: ZTypedNumber,
            low: ZTypedNumber,
            high: ZTypedNumber,
            criticalLow: ZTypedNumber,
            criticalHigh: ZTypedNumber,
          }),
        ),
      }),
    ),
  })
  // A text analyte (a colour, 'negative') has no numeric ranges: any left in the form are not sent.
  .transform((test) => ({ ...test, analytes: test.analytes.map((a) => (a.kind === 'text' ? { ...a, ranges: [] } : a)) }));
// (Zod's pipe types ask the next schema's input to be exactly this one's output; it takes more.)
export const ZLabTestForm = ZTypedTest.pipe(ZSaveLabTest as unknown as ZodType<TSaveLabTest, z.output<typeof ZTypedTest>>) as unknown as ZodType<
  TSaveLabTestInput,
  TLabTestValues
>;

/**
 * Every input's path, for the server's field errors: a 400 names `analytes.0.ranges.1.high`,
 * which is the form's own name for that input.
 */
export const LAB_TEST_FIELDS: readonly Path<TLabTestValues>[] = [
  'name',
  'loinc',
  'isActive',
  'analytes',
  ...Array.from({ length: LAB_MAX_ANALYTES }, (_, i) => [
    `analytes.${i}.name`,
    `analytes.${i}.loinc`,
    `analytes.${i}.unit`,
    `analytes.${i}.kind`,
    `analytes.${i}.ranges`,
    ...Array.from({ length: MAX_RANGES }, (_, j) =>
      (['sex', 'ageFrom', 'ageTo', ...RANGE_LIMITS] as const).map((field) => `analytes.${i}.ranges.${j}.${field}`),
    ).flat(),
  ]).flat(),
] as Path<TLabTestValues>[];
