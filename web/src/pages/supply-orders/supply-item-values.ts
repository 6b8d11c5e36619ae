import type { Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import { ZSaveSupplyItem, type TSaveSupplyItem, type TSupplyItem } from '#domain/supplies';
import { centsToDollars, dollarsToCents } from './supply-format.ts';

/**
 * A catalogue item as the form holds it. Each field has the server's name, so a refusal lands
 * under its input; the price is typed in dollars (`unitPriceCents` holds that text) and sent as
 * cents; a count is NaN while its input is blank.
 */
export interface TSupplyItemValues {
  name: string;
  unit: string;
  packSize: number;
  unitPriceCents: string;
  preferredSupplierId: string;
  reorderPoint: number;
  parLevel: number;
  lot: string;
  expiresOn: string;
  isActive: boolean;
  /** On creation only. */
  openingQuantity: number;
}

export const SUPPLY_ITEM_FIELDS: readonly Path<TSupplyItemValues>[] = [
  'name',
  'unit',
  'packSize',
  'unitPriceCents',
  'preferredSupplierId',
  'reorderPoint',
  'parLevel',
  'lot',
  'expiresOn',
  'isActive',
  'openingQuantity',
];

export function supplyItemFormValues(item: TSupplyItem | null): TSupplyItemValues {
  return {
    name: item?.name ?? '',
    unit: item?.unit ?? '',
    packSize: item?.packSize ?? 1,
    unitPriceCents: item ? centsToDollars(item.unitPriceCents) : '',
    preferredSupplierId: item?.preferredSupplierId ?? '',
    reorderPoint: item?.reorderPoint ?? 0,
    parLevel: item?.parLevel ?? 0,
    lot: item?.lot ?? '',
    expiresOn: item?.expiresOn ?? '',
    isActive: item?.isActive ?? true,
    openingQuantity: item ? Number.NaN : 0,
  };
}

/** The typed fields made into the request's (dollars to cents, blanks to none), then the server's own schema. */
const ZTyped = z
  .object({
    name: z.string(),
    unit: z.string(),
    packSize: z.unknown(),
    unitPriceCents: z.string().transform((text, ctx) => {
      const cents = dollarsToCents(text);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: text.trim() ? 'Enter a price in dollars, e.g. 12.50' : 'Unit price is required' });
        return z.NEVER;
      }
      return cents;
    }),
    preferredSupplierId: z.string().transform((id) => id || null),
    reorderPoint: z.unknown(),
    parLevel: z.unknown(),
    lot: z.string(),
    expiresOn: z.string().transform((day) => day || null),
    isActive: z.boolean(),
    // Blank (NaN) is none: the opening stock is optional; the counts' own rules are the server's, below.
    openingQuantity: z.unknown().transform((n) => (Number.isNaN(n) ? undefined : n)),
  })
  .transform(({ openingQuantity, ...item }) => (openingQuantity === undefined ? item : { ...item, openingQuantity }));

export const ZSupplyItemForm = ZTyped.pipe(ZSaveSupplyItem as unknown as ZodType<TSaveSupplyItem, z.output<typeof ZTyped>>) as unknown as ZodType<
  TSaveSupplyItem,
  TSupplyItemValues
>;
