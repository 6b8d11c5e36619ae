import { z } from 'zod';
import { MEDICATION_ROUTES } from './chart.ts';
import { optionalLine } from './text.ts';

/**
 * A prescription's sig (issue 52): the directions composed from fields, never typed as prose,
 * so that the same fields give the sentence the patient reads, the daily dose the dose check
 * weighs, and the days a quantity lasts.
 */

/** How often, and how many times a day that is (null: not a daily rhythm, a single dose). */
export const FREQUENCIES = {
  once: { words: 'once', perDay: null },
  daily: { words: 'once a day', perDay: 1 },
  bid: { words: 'twice a day', perDay: 2 },
  tid: { words: 'three times a day', perDay: 3 },
  qid: { words: 'four times a day', perDay: 4 },
  q4h: { words: 'every 4 hours', perDay: 6 },
  q6h: { words: 'every 6 hours', perDay: 4 },
  q8h: { words: 'every 8 hours', perDay: 3 },
  q12h: { words: 'every 12 hours', perDay: 2 },
  morning: { words: 'every morning', perDay: 1 },
  bedtime: { words: 'at bedtime', perDay: 1 },
  weekly: { words: 'once a week', perDay: 1 / 7 },
} as const satisfies Record<string, { words: string; perDay: number | null }>;
export type TFrequency = keyof typeof FREQUENCIES;

/** The units a dose is given in: a count of the form, or an amount. */
export const DOSE_UNITS = ['tablet', 'capsule', 'mL', 'mg', 'mcg', 'g', 'unit', 'puff', 'drop', 'spray', 'patch', 'application', 'suppository'] as const;
export type TDoseUnit = (typeof DOSE_UNITS)[number];
type TRoute = (typeof MEDICATION_ROUTES)[number];

/** The verb and the place of each route: 'Take … by mouth', 'Apply … to the skin'. */
const ROUTE_WORDS: Record<TRoute, { verb: string; where: string }> = {
  oral: { verb: 'Take', where: 'by mouth' },
  sublingual: { verb: 'Place', where: 'under the tongue' },
  topical: { verb: 'Apply', where: 'to the skin' },
  transdermal: { verb: 'Apply', where: 'to the skin' },
  inhalation: { verb: 'Inhale', where: 'by mouth' },
  nasal: { verb: 'Use', where: 'in each nostril' },
  ophthalmic: { verb: 'Instil', where: 'in the affected eye' },
  otic: { verb: 'Instil', where: 'in the affected ear' },
  rectal: { verb: 'Insert', where: 'rectally' },
  vaginal: { verb: 'Insert', where: 'vaginally' },
  subcutaneous: { verb: 'Inject', where: 'under the skin' },
  intramuscular: { verb: 'Inject', where: 'into the muscle' },
  intravenous: { verb: 'Give', where: 'intravenously' },
};

export const SIG_LIMITS = { dose: 10_000, durationDays: 365, reason: 100 } as const;

/** A dose taken as needed says what for (the sig's rule, and the form's as it is typed). */
export const asNeededReasonError = (asNeeded: boolean, reason: string | null | undefined) =>
  asNeeded && !reason?.trim() ? 'Say what it is taken for, as needed' : null;

export const ZSig = z
  .object({
    doseAmount: z.number({ error: 'Dose is required' }).positive('A dose is more than 0').max(SIG_LIMITS.dose, `At most ${SIG_LIMITS.dose}`),
    doseUnit: z.enum(DOSE_UNITS, { error: 'Choose the dose unit' }),
    route: z.enum(MEDICATION_ROUTES, { error: 'Choose a route' }),
    frequency: z.enum(Object.keys(FREQUENCIES) as [TFrequency, ...TFrequency[]], { error: 'Choose how often' }),
    durationDays: z
      .number()
      .int('A whole number of days')
      .min(1, 'At least 1 day')
      .max(SIG_LIMITS.durationDays, `At most ${SIG_LIMITS.durationDays} days`)
      .nullish()
      .transform((v) => v ?? null),
    asNeeded: z.boolean().default(false),
    asNeededReason: optionalLine(SIG_LIMITS.reason),
  })
  .strict()
  .superRefine((sig, ctx) => {
    const reason = asNeededReasonError(sig.asNeeded, sig.asNeededReason);
    if (reason) ctx.addIssue({ code: 'custom', path: ['asNeededReason'], message: reason });
    if (!sig.asNeeded && sig.asNeededReason) ctx.addIssue({ code: 'custom', path: ['asNeeded'], message: 'A reason is given only for a dose taken as needed' });
  });
export type TSig = z.infer<typeof ZSig>;

/** A sig as checked and stored: what the API answers with (ZSig's transforms run one way only). */
export const ZStoredSig = z.object({
  doseAmount: z.number(),
  doseUnit: z.enum(DOSE_UNITS),
  route: z.enum(MEDICATION_ROUTES),
  frequency: z.enum(Object.keys(FREQUENCIES) as [TFrequency, ...TFrequency[]]),
  durationDays: z.number().int().nullable(),
  asNeeded: z.boolean(),
  asNeededReason: z.string().nullable(),
}) satisfies z.ZodType<TSig>;

const amount = (n: number) => String(Math.round(n * 1000) / 1000);
/** A count of a unit as words read it: '2 tablets', '1 capsule', '5 mL'. */
export const unitWords = (n: number, unit: TDoseUnit) => (n === 1 || ['mL', 'mg', 'mcg', 'g'].includes(unit) ? unit : `${unit}s`);

/** The directions as a sentence: 'Take 1 tablet by mouth twice a day for 10 days as needed for pain.' */
export function sigSentence(sig: TSig): string {
  const route = ROUTE_WORDS[sig.route];
  return (
    [
      route.verb,
      `${amount(sig.doseAmount)} ${unitWords(sig.doseAmount, sig.doseUnit)}`,
      route.where,
      FREQUENCIES[sig.frequency].words,
      sig.durationDays ? `for ${sig.durationDays} ${sig.durationDays === 1 ? 'day' : 'days'}` : null,
      sig.asNeeded ? `as needed for ${sig.asNeededReason}` : null,
    ]
      .filter(Boolean)
      .join(' ') + '.'
  );
}

/** A strength that is one amount per unit of the form ('500 mg' a tablet), as a number and unit; null otherwise ('5 mg/5 mL', '875 mg/125 mg'). */
export function singleStrength(strength: string | null): { value: number; unit: 'mg' | 'mcg' | 'g' } | null {
  const match = strength ? /^(\d+(?:\.\d+)?)\s*(mg|mcg|g)$/i.exec(strength.trim()) : null;
  return match ? { value: Number(match[1]), unit: match[2]!.toLowerCase() as 'mg' | 'mcg' | 'g' } : null;
}

/**
 * The most a day comes to, for the dose check: in the dose's own unit, or, for a count of tablets
 * or capsules of a single strength, in that strength's unit (2 × 500 mg tablets twice a day is
 * 2,000 mg). Null for a single dose or a weekly rhythm, which no daily maximum measures.
 */
export function dailyDoseOf(sig: TSig, strength: string | null): { value: number; unit: string } | null {
  const perDay = FREQUENCIES[sig.frequency].perDay;
  if (perDay === null || perDay < 1) return null;
  const units = sig.doseAmount * perDay;
  const per = singleStrength(strength);
  if ((sig.doseUnit === 'tablet' || sig.doseUnit === 'capsule') && per) return { value: units * per.value, unit: per.unit };
  return { value: units, unit: sig.doseUnit };
}

/** The days a quantity (in the dose's unit) lasts at the sig's rhythm; null where the rhythm gives none. */
export function daysOfSupply(sig: TSig, quantity: number): number | null {
  const perDay = FREQUENCIES[sig.frequency].perDay;
  return perDay === null ? null : Math.floor(quantity / (sig.doseAmount * perDay));
}
