import { z } from 'zod';

/**
 * What the allergy banner shows (issue 51), in a module of its own: it rides with every patient
 * read (domain/patients.ts) and every screen that shows one, which must not carry the whole
 * chart's schemas to do so.
 */

export const ALLERGY_CRITICALITIES = ['low', 'high', 'unable_to_assess'] as const;

/**
 * The patient's allergy statement besides her list: 'No known allergies', 'No known drug
 * allergies', each recorded by someone at a time. Null is 'never asked': the three look
 * different everywhere (the banner above all).
 */
export const ALLERGY_ASSESSMENTS = ['nka', 'nkda'] as const;
export const ALLERGY_ASSESSMENT_LABELS: Record<(typeof ALLERGY_ASSESSMENTS)[number], string> = { nka: 'No known allergies', nkda: 'No known drug allergies' };

/**
 * Her active allergies (high criticality first; a scribe's drafts among them, marked
 * unconfirmed), and her statement (NKA, NKDA) with who made it and when. `state` is what the
 * banner leads with: 'listed', 'nka', 'nkda' or 'unknown' (nobody asked).
 */
export const ZAllergySummary = z.object({
  state: z.enum(['listed', 'nka', 'nkda', 'unknown']),
  allergies: z.array(z.object({ name: z.string(), criticality: z.enum(ALLERGY_CRITICALITIES), reactions: z.array(z.string()), confirmed: z.boolean() })),
  statement: z.object({ value: z.enum(ALLERGY_ASSESSMENTS), at: z.string(), byName: z.string().nullable() }).nullable(),
});
export type TAllergySummary = z.infer<typeof ZAllergySummary>;
export type TAllergyStatement = NonNullable<TAllergySummary['statement']>;
