import type { Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import { formularyName, ZSaveFormularyItem, type TFormularyItem, type TSaveFormularyItem } from '#domain/formulary';
import type { TServerPaths } from '../../lib/form-errors.ts';

/**
 * A formulary item as the form holds it: the ingredients typed as one line ('amoxicillin,
 * clavulanate'), a blank route or schedule for none. Each field has the server's name, so a
 * refusal lands under its input.
 */
export interface TFormularyItemValues {
  ingredients: string;
  strength: string;
  doseForm: string;
  route: string;
  rxcui: string;
  atc: string;
  schedule: string;
  isActive: boolean;
}

export const FORMULARY_ITEM_FIELDS: readonly Path<TFormularyItemValues>[] = [
  'ingredients',
  'strength',
  'doseForm',
  'route',
  'rxcui',
  'atc',
  'schedule',
  'isActive',
];
/** A refused ingredient (ingredients.1) is shown under the one line that holds them all. */
export const FORMULARY_ITEM_SERVER_PATHS: TServerPaths<TFormularyItemValues> = Object.fromEntries(
  Array.from({ length: 11 }, (_, i) => [`ingredients.${i}`, 'ingredients']),
);

/** The ingredients of the one line: split at commas or slashes, blanks dropped. */
export const ingredientsOf = (line: string) =>
  line
    .split(/[,/]/)
    .map((part) => part.trim())
    .filter(Boolean);

export function formularyItemValues(item: TFormularyItem | null): TFormularyItemValues {
  return {
    ingredients: item?.ingredients.join(', ') ?? '',
    strength: item?.strength ?? '',
    doseForm: item?.doseForm ?? '',
    route: item?.route ?? '',
    rxcui: item?.rxcui ?? '',
    atc: item?.atc ?? '',
    schedule: item?.schedule ?? '',
    isActive: item?.isActive ?? true,
  };
}

/** The name the server will give the item, shown as the admin types. */
export const previewName = (values: TFormularyItemValues) =>
  formularyName({
    ingredients: ingredientsOf(values.ingredients).map((i) => i.toLowerCase()),
    strength: values.strength.trim() || null,
    doseForm: values.doseForm.trim() || null,
  });

const ZTyped = z.object({
  ingredients: z.string().transform(ingredientsOf),
  strength: z.string(),
  doseForm: z.string(),
  route: z.string().transform((v) => v || null),
  rxcui: z.string(),
  atc: z.string(),
  schedule: z.string().transform((v) => v || null),
  isActive: z.boolean(),
});

/** The typed fields made into the request's, then the server's own schema. */
export const ZFormularyItemForm = ZTyped.pipe(ZSaveFormularyItem as unknown as ZodType<TSaveFormularyItem, z.output<typeof ZTyped>>) as unknown as ZodType<
  TSaveFormularyItem,
  TFormularyItemValues
>;
