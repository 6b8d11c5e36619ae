import { z } from 'zod';
import { requiredLine } from './text.ts';

/**
 * The problem list's codes (issue 51): the shipped ICD-10-CM starter list and the codes a clinic
 * adds. A code is ICD-10-CM's own shape (a letter, two characters, then up to four after a dot),
 * so a problem keeps coding as ICD-10-CM everywhere it goes (FHIR, the printed summary).
 */
export const CONDITION_SOURCES = ['icd10cm', 'clinic'] as const;
export const CONDITION_LIMITS = { title: 300 } as const;

/** 'E11.9', 'I10', 'Z00.00': a letter, a digit, a digit or letter, and optionally a dot and 1–4 more. */
export const ICD10CM_CODE = /^[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?$/;

const ZTitle = requiredLine('Title', CONDITION_LIMITS.title);

/** POST /api/admin/condition-codes: a code the clinic adds. */
export const ZNewConditionCode = z
  .object({
    code: z
      .string({ error: 'Code is required' })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine((v) => ICD10CM_CODE.test(v), 'An ICD-10-CM code looks like E11.9 or I10'),
    title: ZTitle,
  })
  .strict();
export type TNewConditionCode = z.infer<typeof ZNewConditionCode>;

/**
 * PUT /api/admin/condition-codes/{code}: a clinic's code's title, and whether any code is still
 * offered. A shipped code's title is ICD-10-CM's and is not rewritten here.
 */
export const ZChangeConditionCode = z
  .object({ title: ZTitle.optional(), isActive: z.boolean({ error: 'Must be true or false' }).optional(), updatedAt: z.string().optional() })
  .strict();
export type TChangeConditionCode = z.infer<typeof ZChangeConditionCode>;

export const ZConditionCode = z.object({
  code: z.string(),
  title: z.string(),
  source: z.enum(CONDITION_SOURCES),
  isActive: z.boolean(),
  updatedAt: z.string(),
});
export type TConditionCode = z.infer<typeof ZConditionCode>;
