import { eq } from 'drizzle-orm';
import { addDays, zonedDate } from '#domain/clinic-time';
import {
  SUPPLY_ITEM_PAGE,
  type TRecordSupplyCount,
  type TRecordSupplyUse,
  type TSaveSupplyItem,
  type TSupplyItem,
  type TSupplyItemListQuery,
} from '#domain/supplies';
import type { TPage } from '#domain/paging';
import { supplyItems } from '../../db/schema/supplies.ts';
import { sqlStateOf } from '../../db/sql-state.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { isActiveSupplier } from './supply-orders.queries.ts';
import {
  activeSuppliers,
  addMovement,
  decodeItemCursor,
  decodeMovementCursor,
  listMovements,
  listSupplyItems,
  lockSupplyItem,
  readSupplyItem,
  type TSupplyItemRow,
} from './supply-items.queries.ts';

/**
 * The supply catalogue and its stock (issue 31; docs/decisions/supplies.md). Reading it names no
 * patient: those who keep stock read it, unaudited; every change of stock and of the catalogue is
 * audited, and stock changes only by movements (on hand is their sum).
 */
const NOT_FOUND = 'Supply item not found';
const DUPLICATE = () => new HttpError('record.conflict', { message: 'An item of that name is already in the catalogue' });

/** The clinic's last day an item may expire on and still be in the `expiring` list. */
const expiringBy = (deps: Deps, days: number) => addDays(zonedDate(deps.config.now(), deps.settings.current().timeZone), days);

/** GET /api/supply-items: a list (low stock, expiring, all), a page at a time. */
export const supplyItemsFor = (deps: Deps, query: TSupplyItemListQuery) =>
  listSupplyItems(deps.db, {
    view: query.view,
    expiringBy: expiringBy(deps, query.within),
    q: query.q,
    includeInactive: query.all === '1',
    limit: query.limit,
    after: query.cursor ? decodeItemCursor(query.view, query.cursor) : null,
  });

export async function supplyItemFor(deps: Deps, id: string): Promise<TSupplyItem> {
  const item = await readSupplyItem(deps.db, id);
  if (!item) throw notFound(NOT_FOUND);
  return item;
}

/** GET /api/supply-items/{id}/movements: the item's ledger, newest first. */
export async function movementsFor(deps: Deps, id: string, query: { limit: number; cursor?: string | undefined }) {
  await supplyItemFor(deps, id);
  return listMovements(deps.db, id, { limit: query.limit, beforeSeq: query.cursor ? decodeMovementCursor(query.cursor) : null });
}

/** The accounts an order may be placed with, for the pickers. */
export const suppliersFor = (deps: Deps) => activeSuppliers(deps.db);

/** Every item of a list, for the CSV export: its pages read one after another. */
export async function* allSupplyItems(deps: Deps, query: Omit<TSupplyItemListQuery, 'limit' | 'cursor'>): AsyncGenerator<TSupplyItem[]> {
  let cursor: string | undefined;
  do {
    const page: TPage<TSupplyItem> = await supplyItemsFor(deps, { ...query, limit: SUPPLY_ITEM_PAGE.maxLimit, cursor });
    yield page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** A version check, and a 404 for an item that is not there. */
async function lockForChange(tx: Parameters<typeof lockSupplyItem>[0], id: string, version?: string): Promise<TSupplyItemRow> {
  const item = await lockSupplyItem(tx, id);
  if (!item) throw notFound(NOT_FOUND);
  if (version !== undefined && version !== item.updatedAt.toISOString()) throw stale();
  return item;
}

/**
 * POST /api/supply-items (id null) or PUT /api/supply-items/{id}: the admin's catalogue. Stock is
 * not a field: a new item's opening stock is its first movement; later it moves by use, count and pickup.
 */
export async function saveSupplyItem(deps: Deps, ctx: SignedInContext, id: string | null, input: TSaveSupplyItem): Promise<TSupplyItem> {
  try {
    const savedId = await inTransaction(deps, async (tx, raise) => {
      const now = deps.config.now();
      if (input.preferredSupplierId && !(await isActiveSupplier(tx, input.preferredSupplierId)))
        throw invalid('preferredSupplierId', 'Choose an active supplier');
      if (id !== null && input.openingQuantity !== undefined) throw invalid('openingQuantity', 'Only a new item has opening stock; record a count instead');
      const values = {
        name: input.name,
        unit: input.unit,
        packSize: input.packSize,
        unitPriceCents: input.unitPriceCents,
        preferredSupplierId: input.preferredSupplierId ?? null,
        reorderPoint: input.reorderPoint,
        parLevel: input.parLevel,
        lot: input.lot ?? null,
        expiresOn: input.expiresOn ?? null,
        isActive: input.isActive,
        updatedAt: now,
      };
      let itemId: string;
      if (id === null) {
        itemId = (
          await tx
            .insert(supplyItems)
            .values({ ...values, createdAt: now })
            .returning({ id: supplyItems.id })
        )[0]!.id;
        if (input.openingQuantity) await addMovement(tx, { itemId, kind: 'opening', quantity: input.openingQuantity, actorId: ctx.user.id, at: now });
      } else {
        await lockForChange(tx, id, input.updatedAt);
        await tx.update(supplyItems).set(values).where(eq(supplyItems.id, id));
        itemId = id;
      }
      await recordAudit(tx, ctx, { action: id === null ? 'supply.item.create' : 'supply.item.update', entityType: 'supply_item', entityId: itemId });
      raise({ type: 'supply.changed', orderId: null, supplierId: null, actorId: ctx.user.id });
      return itemId;
    });
    return (await readSupplyItem(deps.db, savedId))!;
  } catch (error) {
    // The name is unique without regard to case (supply_items_name_key).
    if (sqlStateOf(error) === '23505') throw DUPLICATE();
    throw error;
  }
}

/** POST /api/supply-items/{id}/use: some of it was used. More than is on hand is refused: a count puts the record right. */
export async function recordSupplyUse(deps: Deps, ctx: SignedInContext, id: string, input: TRecordSupplyUse): Promise<TSupplyItem> {
  await inTransaction(deps, async (tx, raise) => {
    const item = await lockForChange(tx, id);
    if (input.quantity > item.onHand) {
      throw new HttpError('supply.notEnoughStock', { message: `Only ${item.onHand} ${item.unit} on hand. Record a count if the stock on record is wrong.` });
    }
    await addMovement(tx, { itemId: id, kind: 'use', quantity: -input.quantity, note: input.note ?? null, actorId: ctx.user.id, at: deps.config.now() });
    await recordAudit(tx, ctx, { action: 'supply.use', entityType: 'supply_item', entityId: id });
    raise({ type: 'supply.changed', orderId: null, supplierId: null, actorId: ctx.user.id });
  });
  return (await readSupplyItem(deps.db, id))!;
}

/**
 * POST /api/supply-items/{id}/count: what is on the shelf. The difference from the stock on record
 * is one movement, with its reason (required when there is a difference); a count that agrees is
 * recorded too (when the shelf was last checked). A new lot or expiry found on the shelf is kept.
 */
export async function recordSupplyCount(deps: Deps, ctx: SignedInContext, id: string, input: TRecordSupplyCount): Promise<TSupplyItem> {
  await inTransaction(deps, async (tx, raise) => {
    const item = await lockForChange(tx, id);
    const difference = input.counted - item.onHand;
    if (difference !== 0 && !input.reason) throw invalid('reason', `The count differs from the ${item.onHand} on record: say why`);
    const now = deps.config.now();
    await addMovement(tx, {
      itemId: id,
      kind: 'count',
      quantity: difference,
      reason: difference === 0 ? null : input.reason,
      note: input.note ?? null,
      actorId: ctx.user.id,
      at: now,
    });
    const shelf = { ...(input.lot !== undefined ? { lot: input.lot } : {}), ...(input.expiresOn !== undefined ? { expiresOn: input.expiresOn } : {}) };
    if (Object.keys(shelf).length > 0)
      await tx
        .update(supplyItems)
        .set({ ...shelf, updatedAt: now })
        .where(eq(supplyItems.id, id));
    await recordAudit(tx, ctx, { action: 'supply.count', entityType: 'supply_item', entityId: id });
    raise({ type: 'supply.changed', orderId: null, supplierId: null, actorId: ctx.user.id });
  });
  return (await readSupplyItem(deps.db, id))!;
}
