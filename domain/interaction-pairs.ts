import { z } from 'zod';
import { ZIngredient } from './formulary.ts';
import { requiredLine } from './text.ts';

/**
 * The clinic's own drug–drug interaction pairs (issue 52; docs/decisions/prescriptions.md): beside
 * the shipped ones (the ONC high-priority list), a pair of two named groups of ingredients, each
 * of them an ingredient of the formulary, with how loud the alert is and the line a prescriber
 * reads. A pair is retired, never deleted: prescriptions signed over its alert name it.
 */
export const INTERACTION_SEVERITIES = ['high', 'moderate'] as const;
export type TInteractionPairSeverity = (typeof INTERACTION_SEVERITIES)[number];
export const INTERACTION_PAIR_LIMITS = { name: 80, ingredients: 50, effect: 300 } as const;
/** Where a shipped pair comes from: the ONC list, or the example the app ships as a clinic's. */
export const SHIPPED_PAIR_SOURCES = ['onc-2012', 'clinic'] as const;

/** One side of a pair: lower-case ingredient names, each once. */
const ZSide = z
  .array(ZIngredient, { error: 'List the ingredients' })
  .min(1, 'Name at least one ingredient')
  .max(INTERACTION_PAIR_LIMITS.ingredients, `At most ${INTERACTION_PAIR_LIMITS.ingredients} ingredients`)
  .refine((list) => new Set(list).size === list.length, 'An ingredient is listed twice');

const pairShape = {
  /** What side A is called in the alert ('SSRIs', 'Sertraline'). */
  nameA: requiredLine('Name', INTERACTION_PAIR_LIMITS.name),
  ingredientsA: ZSide,
  nameB: requiredLine('Name', INTERACTION_PAIR_LIMITS.name),
  ingredientsB: ZSide,
  severity: z.enum(INTERACTION_SEVERITIES, { error: 'Severity is high or moderate' }),
  /** What happens, in the line the prescriber reads in the alert. */
  effect: requiredLine('Effect', INTERACTION_PAIR_LIMITS.effect),
};

/** POST /api/admin/interaction-pairs: a pair the clinic adds. The server also checks each ingredient is the formulary's. */
export const ZNewInteractionPair = z.object({ ...pairShape, isActive: z.boolean({ error: 'Must be true or false' }).default(true) }).strict();
export type TNewInteractionPair = z.infer<typeof ZNewInteractionPair>;
export type TNewInteractionPairBody = z.input<typeof ZNewInteractionPair>;

/**
 * PUT /api/admin/interaction-pairs/{id}: the fields sent replace the pair's, those left out stay
 * (`{ isActive: false }` retires it). With the `updatedAt` read, a save over someone else's
 * change is refused (409).
 */
export const ZChangeInteractionPair = z
  .object({
    nameA: pairShape.nameA.optional(),
    ingredientsA: pairShape.ingredientsA.optional(),
    nameB: pairShape.nameB.optional(),
    ingredientsB: pairShape.ingredientsB.optional(),
    severity: pairShape.severity.optional(),
    effect: pairShape.effect.optional(),
    isActive: z.boolean({ error: 'Must be true or false' }).optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TChangeInteractionPair = z.infer<typeof ZChangeInteractionPair>;
export type TChangeInteractionPairBody = z.input<typeof ZChangeInteractionPair>;

/** What every pair reads as, the clinic's or shipped: two classes by name and ingredients, how bad, and what happens. */
const readPairShape = {
  nameA: z.string(),
  ingredientsA: z.array(z.string()),
  nameB: z.string(),
  ingredientsB: z.array(z.string()),
  severity: z.enum(INTERACTION_SEVERITIES),
  effect: z.string(),
};

/** A pair of the clinic's, as the admin's list shows it. */
export const ZInteractionPair = z.object({ id: z.string().uuid(), ...readPairShape, isActive: z.boolean(), createdAt: z.string(), updatedAt: z.string() });
export type TInteractionPair = z.infer<typeof ZInteractionPair>;

/** A pair the app ships, read-only: its two classes by name and ingredients. */
export const ZShippedInteractionPair = z.object({ ...readPairShape, source: z.enum(SHIPPED_PAIR_SOURCES) });
export type TShippedInteractionPair = z.infer<typeof ZShippedInteractionPair>;

/** GET /api/admin/interaction-pairs: the shipped pairs (read-only) and the clinic's, active first. */
export const ZInteractionPairs = z.object({ shipped: z.array(ZShippedInteractionPair), clinic: z.array(ZInteractionPair) });
export type TInteractionPairs = z.infer<typeof ZInteractionPairs>;

/** How loud a pair's alert is, in words. */
export const SEVERITY_WORDS: Record<TInteractionPairSeverity, string> = {
  high: 'High: a reason is needed to sign over it',
  moderate: 'Moderate: shown, not blocking',
};
