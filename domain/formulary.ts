import { z } from 'zod';
import { MEDICATION_ROUTES } from './chart.ts';
import { pageQuery } from './paging.ts';
import { optionalLine, requiredLine } from './text.ts';

/**
 * The formulary (issue 51) the chart and prescriptions share: products as a prescriber picks
 * them ('Amoxicillin 500 mg capsule'), each with its ingredients (what an allergy is checked
 * against), strength, dose form, route, RxNorm code and ATC class where known.
 */

/**
 * An ingredient's name as people write it: the catalogue keeps it in lower case ('penicillin v',
 * 'vitamin b12'), shown with its first letter and its one-letter parts in capitals ('Penicillin V',
 * 'Vitamin B12').
 */
export function ingredientName(name: string): string {
  return capitalised(lettersUp(name));
}

/** An ingredient's one-letter parts in capitals ('penicillin v' → 'penicillin V'). */
const lettersUp = (name: string) =>
  name
    .split(' ')
    .map((word) => (/^[a-z]\d*$/.test(word) ? word.toUpperCase() : word))
    .join(' ');
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A product's name as the formulary shows it: its ingredients, strength and form ('Amoxicillin / clavulanate 875 mg / 125 mg tablet'). */
export function formularyName(item: { ingredients: readonly string[]; strength: string | null; doseForm: string | null }): string {
  // Only the ingredients' letters: a strength's unit ('1 g') stays as written.
  return capitalised([item.ingredients.map(lettersUp).join(' / '), item.strength, item.doseForm].filter(Boolean).join(' '));
}

/** A controlled substance's US DEA schedule (schedule I drugs are not prescribed). */
export const DEA_SCHEDULES = ['II', 'III', 'IV', 'V'] as const;
/** Where an item came from: the shipped starter list, the clinic's own, an RxNorm import. */
export const FORMULARY_SOURCES = ['starter', 'clinic', 'rxnorm'] as const;
/** Retired items stay (medication entries name them), out of the pickers. */
export const CATALOGUE_STATUSES = ['active', 'retired', 'all'] as const;
export const FORMULARY_LIMITS = { ingredients: 10, ingredient: 100, strength: 100, doseForm: 60 } as const;
export const CATALOGUE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** An ingredient as the catalogue keeps it: lower case, one space between words ('Penicillin  V' → 'penicillin v'). */
export const ZIngredient = requiredLine('Ingredient', FORMULARY_LIMITS.ingredient).transform((name) => name.toLowerCase().replace(/\s+/g, ' '));

/** POST /api/admin/formulary, PUT /api/admin/formulary/{id}: an item as an admin writes it; its name is made from these. */
export const ZSaveFormularyItem = z
  .object({
    ingredients: z
      .array(ZIngredient, { error: 'List the ingredients' })
      .min(1, 'Name at least one ingredient')
      .max(FORMULARY_LIMITS.ingredients, `At most ${FORMULARY_LIMITS.ingredients} ingredients`)
      .refine((list) => new Set(list).size === list.length, 'An ingredient is listed twice'),
    strength: optionalLine(FORMULARY_LIMITS.strength),
    doseForm: optionalLine(FORMULARY_LIMITS.doseForm),
    route: z
      .enum(MEDICATION_ROUTES, { error: 'Choose a route' })
      .nullish()
      .transform((v) => v ?? null),
    /** An RxNorm concept id: digits only. */
    rxcui: optionalLine(20).refine((v) => v === null || /^\d{1,12}$/.test(v), 'An RxNorm code is digits only, e.g. 308182'),
    /** A WHO ATC code at any level from the group down to the substance: 'J01', 'J01CA', 'J01CA04'. */
    atc: optionalLine(10)
      .transform((v) => v?.toUpperCase() ?? null)
      .refine((v) => v === null || /^[A-Z](\d{2}([A-Z]([A-Z](\d{2})?)?)?)?$/.test(v), 'An ATC code looks like J01CA04'),
    /** A controlled substance's schedule; none for the rest. */
    schedule: z
      .enum(DEA_SCHEDULES, { error: 'A DEA schedule is II, III, IV or V' })
      .nullish()
      .transform((v) => v ?? null),
    isActive: z.boolean().default(true),
    /** The item's updatedAt as read: a save over someone else's change is refused (409). */
    updatedAt: z.string().optional(),
  })
  .strict();
export type TSaveFormularyItem = z.infer<typeof ZSaveFormularyItem>;
export type TSaveFormularyItemInput = z.input<typeof ZSaveFormularyItem>;

export const ZFormularyItem = z.object({
  id: z.string().uuid(),
  name: z.string(),
  ingredients: z.array(z.string()),
  strength: z.string().nullable(),
  doseForm: z.string().nullable(),
  route: z.enum(MEDICATION_ROUTES).nullable(),
  rxcui: z.string().nullable(),
  atc: z.string().nullable(),
  schedule: z.enum(DEA_SCHEDULES).nullable(),
  source: z.enum(FORMULARY_SOURCES),
  isActive: z.boolean(),
  updatedAt: z.string(),
});
export type TFormularyItem = z.infer<typeof ZFormularyItem>;

/** GET /api/admin/formulary and /api/admin/condition-codes: the admin's editor, by name, a page at a time. */
export const ZCatalogueQuery = pageQuery(CATALOGUE_PAGE)
  .extend({ q: optionalLine(100).optional(), status: z.enum(CATALOGUE_STATUSES).default('active') })
  .strict();
export type TCatalogueQuery = z.infer<typeof ZCatalogueQuery>;
