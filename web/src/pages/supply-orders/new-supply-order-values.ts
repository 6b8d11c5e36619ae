import type { Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import { orderTotalCents, suggestedQuantity, SUPPLY_LIMITS, ZCreateSupplyOrder, type TCreateSupplyOrder, type TSupplyItem } from '#domain/supplies';

/** One line of the form: the catalogue's item as it was when added (shown, never sent) and the quantity typed. */
export interface TOrderLine {
  itemId: string;
  /** NaN while blank (the input's valueAsNumber). */
  quantity: number;
  item: TSupplyItem;
}

export interface TNewOrderValues {
  supplierId: string;
  items: TOrderLine[];
  notes: string;
}

/**
 * The form checked by the server's own schema (domain/supplies.ts ZCreateSupplyOrder): only the
 * ids and quantities go on, at the paths the server would name (`items.1.quantity`), so its
 * messages are the form's ('Quantity must be at least 1', 'Choose a supplier', 'Add at least one item').
 */
const ZLines = z
  .object({ supplierId: z.string(), items: z.array(z.object({ itemId: z.string(), quantity: z.unknown() })), notes: z.string() })
  .transform(({ supplierId, items, notes }) => ({ supplierId, items: items.map(({ itemId, quantity }) => ({ itemId, quantity })), notes }));
export const ZNewOrderForm = ZLines.pipe(ZCreateSupplyOrder as unknown as ZodType<TCreateSupplyOrder, z.output<typeof ZLines>>) as unknown as ZodType<
  TCreateSupplyOrder,
  TNewOrderValues
>;

/** Every input's path, for the server's field errors. */
export const NEW_ORDER_FIELDS: readonly Path<TNewOrderValues>[] = [
  'supplierId',
  'notes',
  'items',
  ...Array.from({ length: SUPPLY_LIMITS.lines }, (_, i) => [`items.${i}.quantity`, `items.${i}.itemId`] as const).flat(),
];

/** A line's first quantity: what the reorder rule would order (whole packs up to par), else one pack. */
export const firstQuantity = (item: TSupplyItem) => suggestedQuantity(item) ?? Math.max(1, item.packSize);

export const lineFor = (item: TSupplyItem): TOrderLine => ({ itemId: item.id, quantity: firstQuantity(item), item });

/** A quantity the preview can count: a whole number of at least one. */
const counted = (quantity: number) => Number.isInteger(quantity) && quantity > 0;

/**
 * The total as the server will compute it from the catalogue's prices (domain/supplies.ts
 * orderTotalCents), for the lines with a quantity: a preview, never sent.
 */
export const previewTotalCents = (lines: readonly TOrderLine[]) =>
  orderTotalCents(lines.filter((line) => counted(line.quantity)).map((line) => ({ quantity: line.quantity, unitPriceCents: line.item.unitPriceCents })));

/** One pack more: up to the next whole pack. */
export function packUp(quantity: number, packSize: number): number {
  const pack = Math.max(1, packSize);
  const q = counted(quantity) ? quantity : 0;
  return Math.min(SUPPLY_LIMITS.quantity, (Math.floor(q / pack) + 1) * pack);
}

/** One pack fewer: down to the last whole pack below, never under one pack. */
export function packDown(quantity: number, packSize: number): number {
  const pack = Math.max(1, packSize);
  const q = counted(quantity) ? quantity : pack;
  return Math.max(pack, (Math.ceil(q / pack) - 1) * pack);
}

/** Whether a quantity is whole packs ('3 packs of 10'), for the line's hint. */
export function packHint(quantity: number, packSize: number): { whole: boolean; text: string } | null {
  if (packSize <= 1 || !counted(quantity)) return null;
  if (quantity % packSize === 0) {
    const packs = quantity / packSize;
    return { whole: true, text: `${packs} ${packs === 1 ? 'pack' : 'packs'} of ${packSize}` };
  }
  return { whole: false, text: `Not whole packs: it comes in packs of ${packSize}` };
}
