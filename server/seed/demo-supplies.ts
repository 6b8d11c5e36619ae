import { sql } from 'drizzle-orm';
import { addDays, zonedDate } from '#domain/clinic-time';
import type { TSupplyOrderStatus } from '#domain/orders';
import { formatCents, lineTotalCents, orderTotalCents, suggestedQuantity, type TSupplyCountReason, type TSupplyOrderLine } from '#domain/supplies';
import { queryRows, type Tx } from '../db/database.ts';
import { supplyOrders } from '../db/schema/clinical.ts';
import { notifications } from '../db/schema/collaboration.ts';
import { supplyItems, supplyMovements, supplySuggestions } from '../db/schema/supplies.ts';

/**
 * The demo clinic's supplies (issue 31): a catalogue of what a small clinic stocks, at realistic
 * prices, with a few weeks of use behind it; some items low, some expiring; orders in every
 * status (one ready for the nurse to pick up, one new for the supplier); and the reorder job's
 * suggestions for what is low and not yet on order.
 */
type TItemDef = [
  name: string,
  unit: string,
  packSize: number,
  priceCents: number,
  reorderPoint: number,
  parLevel: number,
  opening: number,
  usedPerWeek: number,
  expiresInDays: number | null,
];

const CATALOGUE: TItemDef[] = [
  ['Nitrile exam gloves, medium (100/box)', 'box', 10, 1299, 6, 20, 22, 4, null],
  ['Nitrile exam gloves, large (100/box)', 'box', 10, 1299, 4, 12, 14, 2, null],
  ['Surgical masks, level 2 (50/box)', 'box', 20, 899, 5, 15, 9, 2, 400],
  ['Alcohol prep pads (200/box)', 'box', 10, 549, 3, 10, 4, 1, 45],
  ['Sterile gauze pads 4x4 (25/pack)', 'pack', 12, 725, 6, 24, 30, 3, 700],
  ['Adhesive bandages, assorted (100/box)', 'box', 6, 619, 3, 9, 2, 1, null],
  ['Syringes 3 mL with needle 23G (100/box)', 'box', 4, 2450, 2, 6, 5, 1, 520],
  ['Exam table paper, 21 in', 'roll', 12, 1175, 6, 18, 8, 3, null],
  ['Hand sanitizer 500 mL', 'bottle', 12, 489, 6, 24, 26, 4, 25],
  ['Sharps container 2 gal', 'each', 10, 835, 2, 8, 6, 1, null],
  ['Specimen cups, sterile (100/case)', 'case', 1, 3199, 1, 3, 3, 0, 80],
  ['Blood collection tubes, lavender (100/box)', 'box', 10, 2875, 2, 6, 1, 1, 30],
  ['Thermometer probe covers (200/box)', 'box', 10, 1450, 2, 6, 7, 1, null],
  ['Tongue depressors (500/box)', 'box', 10, 915, 1, 4, 4, 0, null],
  ['Disinfecting wipes', 'canister', 12, 799, 6, 18, 5, 3, 60],
];

export async function seedDemoSupplies(
  tx: Tx,
  people: { admin: string; nurse: string; nurse2: string; scheduler: string; supplier: string },
  now: Date,
  timeZone: string,
  opened: Date,
): Promise<void> {
  const daysAgo = (days: number, hour = 10) => new Date(now.getTime() - days * 86_400_000 + (hour - 12) * 3_600_000);
  const today = zonedDate(now, timeZone);

  const items = await tx
    .insert(supplyItems)
    .values(
      CATALOGUE.map(([name, unit, packSize, unitPriceCents, reorderPoint, parLevel, , , expiresIn], i) => ({
        name,
        unit,
        packSize,
        unitPriceCents,
        reorderPoint,
        parLevel,
        preferredSupplierId: people.supplier,
        lot: expiresIn === null ? null : `L${2600 + i * 17}`,
        expiresOn: expiresIn === null ? null : addDays(today, expiresIn),
        createdAt: opened,
        updatedAt: opened,
      })),
    )
    .returning();

  // The ledger: opening stock the day the clinic opened (a month ago), then weekly use (the trigger keeps on hand), and a
  // count that found damaged stock.
  const stock = new Map(items.map((item) => [item.id, 0]));
  const move = async (
    itemId: string,
    kind: 'opening' | 'use' | 'count' | 'receipt',
    quantity: number,
    at: Date,
    extra: { reason?: TSupplyCountReason; note?: string; orderId?: string; actorId?: string } = {},
  ) => {
    if (quantity === 0 && kind !== 'count') return;
    stock.set(itemId, stock.get(itemId)! + quantity);
    await tx
      .insert(supplyMovements)
      .values({
        itemId,
        kind,
        quantity,
        at,
        actorId: extra.actorId ?? people.nurse,
        reason: extra.reason ?? null,
        note: extra.note ?? null,
        orderId: extra.orderId ?? null,
      });
  };
  for (const [i, item] of items.entries()) {
    const [, , , , , , opening, usedPerWeek] = CATALOGUE[i]!;
    await move(item.id, 'opening', opening + usedPerWeek * 4, opened, { actorId: people.admin });
    for (let week = 4; week >= 1; week--)
      await move(item.id, 'use', -Math.min(usedPerWeek, stock.get(item.id)!), daysAgo(week * 7 - 2), { actorId: week % 2 ? people.nurse : people.nurse2 });
  }
  const gauze = items[4]!;
  await move(gauze.id, 'count', -2, daysAgo(3), { reason: 'damaged', note: 'Two packs water-damaged under the sink', actorId: people.admin });

  const lineOf = (index: number, quantity: number): TSupplyOrderLine => {
    const item = items[index]!;
    return {
      itemId: item.id,
      name: item.name,
      unit: item.unit,
      quantity,
      unitPriceCents: item.unitPriceCents,
      lineTotalCents: lineTotalCents({ quantity, unitPriceCents: item.unitPriceCents }),
      receivedQuantity: null,
    };
  };
  const year = today.slice(0, 4);
  const order = async (
    status: TSupplyOrderStatus,
    by: string,
    lines: TSupplyOrderLine[],
    orderedDaysAgo: number,
    extra: Partial<typeof supplyOrders.$inferInsert> = {},
  ) => {
    // From the sequence every order is numbered from, so the clinic's next order follows these.
    const [next] = await queryRows<{ n: string }>(tx, sql`select nextval('supply_order_number_seq')::text as n`);
    const orderedAt = daysAgo(orderedDaysAgo, 9);
    const [row] = await tx
      .insert(supplyOrders)
      .values({
        orderNumber: `SO-${year}-${next!.n.padStart(6, '0')}`,
        supplierId: people.supplier,
        requestedById: by,
        items: lines,
        totalAmount: orderTotalCents(lines),
        status,
        orderedAt,
        createdAt: orderedAt,
        updatedAt: extra.updatedAt ?? orderedAt,
        ...extra,
      })
      .returning();
    return row!;
  };

  // Picked up two weeks ago, one line short; its receipts are in the ledger.
  const shortLines = [lineOf(0, 10), { ...lineOf(2, 20), receivedQuantity: 15 }, lineOf(8, 12)].map((l) => ({
    ...l,
    receivedQuantity: l.receivedQuantity ?? l.quantity,
  }));
  const done = await order('completed', people.nurse, shortLines, 16, {
    processingAt: daysAgo(15, 11),
    readyAt: daysAgo(14, 15),
    pickedUpAt: daysAgo(14, 16),
    pickedUpById: people.nurse,
    updatedAt: daysAgo(14, 16),
    notes: 'Masks back-ordered: 15 of 20 came.',
  });
  for (const line of shortLines) await move(line.itemId, 'receipt', line.receivedQuantity, daysAgo(14, 16), { orderId: done.id });
  await order('cancelled', people.scheduler, [lineOf(13, 10)], 12, { statusReason: 'Ordered twice; SO kept for the record', updatedAt: daysAgo(12, 10) });
  // Ready for the nurse to pick up (she has been told), one being processed, one new for the supplier.
  const ready = await order('ready_for_pickup', people.nurse, [lineOf(6, 4), lineOf(12, 10)], 3, {
    processingAt: daysAgo(2, 10),
    readyAt: daysAgo(0, 8),
    updatedAt: daysAgo(0, 8),
  });
  const processing = await order('processing', people.nurse2, [lineOf(9, 10)], 2, { processingAt: daysAgo(1, 14), updatedAt: daysAgo(1, 14) });
  const fresh = await order('ordered', people.scheduler, [lineOf(7, 12), lineOf(14, 12)], 0.1, { notes: 'Please deliver before Friday.' });
  await tx.insert(notifications).values([
    {
      userId: people.nurse,
      type: 'supply_ready',
      title: 'Supply order ready',
      message: `${ready.orderNumber} is ready for pickup.`,
      entityId: ready.id,
      createdAt: daysAgo(0, 8),
    },
    {
      userId: people.supplier,
      type: 'supply_ordered',
      title: 'New supply order',
      message: `The front desk ordered ${fresh.orderNumber} (${fresh.items.length} lines, ${formatCents(fresh.totalAmount)}).`,
      entityId: fresh.id,
      createdAt: fresh.orderedAt,
    },
  ]);

  // What the reorder job would draft now: items whose on hand plus on order is at or below their point.
  const onOrder = new Map<string, number>();
  for (const line of [...ready.items, ...processing.items, ...fresh.items]) onOrder.set(line.itemId, (onOrder.get(line.itemId) ?? 0) + line.quantity);
  const suggestions = items.flatMap((item) => {
    const quantity = suggestedQuantity({
      onHand: stock.get(item.id)!,
      onOrder: onOrder.get(item.id) ?? 0,
      reorderPoint: item.reorderPoint,
      parLevel: item.parLevel,
      packSize: item.packSize,
    });
    return quantity === null ? [] : [{ itemId: item.id, quantity, createdAt: daysAgo(0, 7), updatedAt: daysAgo(0, 7) }];
  });
  if (suggestions.length > 0) await tx.insert(supplySuggestions).values(suggestions);
}
