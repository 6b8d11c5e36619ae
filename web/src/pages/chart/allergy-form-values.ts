import { z } from 'zod';
import {
  ALLERGY_CATEGORIES,
  ALLERGY_CRITICALITIES,
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
  ALLERGY_TYPES,
  SUBSTANCE_KINDS,
  ZAllergyFields,
  type TAllergy,
} from '#domain/chart';

/** The allergy form as typed: selects hold '' for 'not chosen', reactions one text separated by commas. */
export interface TAllergyFormValues {
  substance: { kind: '' | (typeof SUBSTANCE_KINDS)[number]; code: string; name: string };
  type: (typeof ALLERGY_TYPES)[number];
  category: '' | (typeof ALLERGY_CATEGORIES)[number];
  reactions: string;
  severity: '' | (typeof ALLERGY_SEVERITIES)[number];
  criticality: (typeof ALLERGY_CRITICALITIES)[number];
  onset: string;
  status: (typeof ALLERGY_STATUSES)[number];
  note: string;
}

export const allergyFormValues = (allergy: TAllergy | null): TAllergyFormValues =>
  allergy
    ? {
        substance: { kind: allergy.substance.kind, code: allergy.substance.code ?? '', name: allergy.substance.name },
        type: allergy.type,
        category: allergy.category,
        reactions: allergy.reactions.join(', '),
        severity: allergy.severity ?? '',
        criticality: allergy.criticality,
        onset: allergy.onset ?? '',
        status: allergy.status,
        note: allergy.note ?? '',
      }
    : {
        substance: { kind: '', code: '', name: '' },
        type: 'allergy',
        category: '',
        reactions: '',
        severity: '',
        criticality: 'unable_to_assess',
        onset: '',
        status: 'active',
        note: '',
      };

/**
 * The form's values as the API takes them, checked by the server's own rules (ZAllergyFields):
 * a substance chosen from the list or typed as free text, a category, dates not ahead.
 */
const blankOr = <T extends readonly [string, ...string[]]>(values: T) => z.union([z.literal(''), z.enum(values)]);

export const ZAllergyForm = z
  .object({
    substance: z.object({ kind: blankOr(SUBSTANCE_KINDS), code: z.string(), name: z.string() }),
    type: z.enum(ALLERGY_TYPES),
    category: blankOr(ALLERGY_CATEGORIES).refine((v) => v !== '', 'Choose a category'),
    reactions: z.string(),
    severity: blankOr(ALLERGY_SEVERITIES),
    criticality: z.enum(ALLERGY_CRITICALITIES),
    onset: z.string(),
    status: z.enum(ALLERGY_STATUSES),
    note: z.string(),
  })
  .transform((v): z.input<typeof ZAllergyFields> => ({
    substance: { kind: v.substance.kind || 'text', code: v.substance.code || null, name: v.substance.name.trim() || null },
    type: v.type,
    category: v.category as (typeof ALLERGY_CATEGORIES)[number],
    reactions: v.reactions
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
    severity: v.severity || null,
    criticality: v.criticality,
    onset: v.onset || null,
    status: v.status,
    note: v.note.trim() || null,
  }))
  .pipe(ZAllergyFields);
export type TAllergyFormOutput = z.output<typeof ZAllergyForm>;
