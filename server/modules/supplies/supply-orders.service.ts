import { staffName } from '#domain/auth';
import { and, eq, inArray } from 'drizzle-orm';
import { zonedDate } from '#domain/clinic-time';
import {
  lineTotalCents,
  orderTotalCents,
  seesSupplyOrder,
  SUPPLY_LIMITS,
  formatCents,
  type TCreateSupplyOrder,
  type TMoveSupplyOrder,
  type TPickUpSupplyOrder,
  type TSupplyOrder,
  type TSupplyOrderLine,
  type TSupplyOrderListQuery,
} from '#domain/supplies';
import { SUPPLY_STATUS_LABELS } from '#domain/orders';
import { serverSetFields, SUPPLY_ORDER_WORKFLOW, type TMove } from '#domain/workflows';
import type { TSupplyOrderStatus } from '#domain/orders';
import type { Queryable } from '../../db/database.ts';
import { supplyOrders } from '../../db/schema/clinical.ts';
import { supplyItems, supplySuggestions } from '../../db/schema/supplies.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { scopeOf } from '../../scope/read-scope.ts';
import { readOf } from '../../scope/reader.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import { addMovement } from './supply-items.queries.ts';
import { lockReorder } from './supply-suggestions.queries.ts';
import { noticeSupplyCancelled, noticeSupplyOrdered, noticeSupplyReady, resolveSupplyNotices, type TSupplyNotice } from './supplies.notices.ts';
import {
  decodeOrderCursor,
  isActiveSupplier,
  listSupplyOrders,
  lockSupplyOrder,
  nextOrderNumber,
  readSupplyOrder,
  type TSupplyOrderRow,
} from './supply-orders.queries.ts';

const NOT_FOUND = 'Supply order not found';
const STALE = 'This supply order was changed by someone else. Reload to see their changes, then try again.';

type TSupplyStamp = 'processingAt' | 'readyAt' | 'pickedUpAt' | 'pickedUpById';
/** The stamps the workflow's move writes (the time, the one who picked it up), typed as their columns. */
const stampsOf = (move: TMove<TSupplyOrderStatus, TSupplyStamp>, now: Date, ctx: SignedInContext) =>
  serverSetFields(move, { now, actorId: ctx.user.id }) as Partial<{ processingAt: Date; readyAt: Date; pickedUpAt: Date; pickedUpById: string }>;

/**
 * The reads of supply orders, in the caller's scope: every order for those who order, only the
 * orders placed with her for a supplier (another's is a 404, and the refusal is recorded). They
 * hold no patient data, so an allowed read writes no audit row.
 */
export const SUPPLY_READS = {
  list: readOf({
    action: 'supply.list',
    entityType: 'supply_order',
    run: ({ db, scope }, query: TSupplyOrderListQuery): Promise<TServedPage<TSupplyOrder>> =>
      listSupplyOrders(db, scope, {
        view: query.view,
        status: query.status,
        requestedById: query.mine === '1' ? scope.viewer.id : undefined,
        limit: query.limit,
        after: query.cursor ? decodeOrderCursor(query.cursor) : null,
      }),
    shows: () => null,
  }),
  get: readOf({
    action: 'supply.read',
    entityType: 'supply_order',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readSupplyOrder(db, scope, id),
    shows: () => null,
  }),
};

const noticeOf = (ctx: SignedInContext, order: Pick<TSupplyOrderRow, 'id' | 'orderNumber' | 'totalAmount' | 'items'>): TSupplyNotice => ({
  orderId: order.id,
  orderNumber: order.orderNumber,
  totalAmount: order.totalAmount,
  lineCount: order.items.length,
  actorId: ctx.user.id,
  actorName: staffName(ctx.user),
});
const written = async (tx: Queryable, ctx: SignedInContext, id: string): Promise<TSupplyOrder> => (await readSupplyOrder(tx, scopeOf(ctx, new Date()), id))!;

/**
 * Places an order in the transaction given: the lines priced from the catalogue as it is now,
 * the total computed here in cents (whatever a client sent), a number from the sequence. Open
 * reorder suggestions for its items are settled by it (under the reorder job's lock, so the job never
 * suggests what is being ordered). Shared by a new order and by one made from
 * suggestions.
 */
export async function placeOrder(
  deps: Deps,
  tx: Queryable,
  raise: Raise,
  ctx: SignedInContext,
  input: { supplierId: string; items: { itemId: string; quantity: number }[]; notes: string | null },
): Promise<TSupplyOrder> {
  await lockReorder(tx);
  const now = deps.config.now();
  const errors: { path: string; message: string }[] = [];
  if (!(await isActiveSupplier(tx, input.supplierId))) errors.push({ path: 'supplierId', message: 'Choose an active supplier' });
  const ids = input.items.map((l) => l.itemId);
  const catalogue = ids.length > 0 ? await tx.select().from(supplyItems).where(inArray(supplyItems.id, ids)) : [];
  const lines: TSupplyOrderLine[] = [];
  input.items.forEach((line, i) => {
    const item = catalogue.find((c) => c.id === line.itemId);
    if (!item?.isActive) return errors.push({ path: `items.${i}.itemId`, message: 'Not an item of the catalogue' });
    const priced = { quantity: line.quantity, unitPriceCents: item.unitPriceCents };
    lines.push({ itemId: item.id, name: item.name, unit: item.unit, ...priced, lineTotalCents: lineTotalCents(priced), receivedQuantity: null });
  });
  if (errors.length > 0) throw invalidFields(errors);
  const totalAmount = orderTotalCents(lines);
  if (totalAmount > SUPPLY_LIMITS.totalCents) throw invalid('items', `An order's total must stay under ${formatCents(SUPPLY_LIMITS.totalCents + 1)}`);

  const orderNumber = await nextOrderNumber(tx, zonedDate(now, deps.settings.current().timeZone).slice(0, 4));
  const [row] = await tx
    .insert(supplyOrders)
    .values({
      orderNumber,
      supplierId: input.supplierId,
      requestedById: ctx.user.id,
      items: lines,
      totalAmount,
      status: SUPPLY_ORDER_WORKFLOW.initial,
      orderedAt: now,
      notes: input.notes,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx
    .update(supplySuggestions)
    .set({ status: 'ordered', orderId: row!.id, resolvedAt: now, resolvedById: ctx.user.id, updatedAt: now })
    .where(and(eq(supplySuggestions.status, 'open'), inArray(supplySuggestions.itemId, ids)));
  await recordAudit(tx, ctx, { action: 'supply.create', entityType: 'supply_order', entityId: row!.id });
  await noticeSupplyOrdered(tx, raise, input.supplierId, noticeOf(ctx, row!));
  raise({ type: 'supply.changed', orderId: row!.id, supplierId: input.supplierId, actorId: ctx.user.id });
  return written(tx, ctx, row!.id);
}

/** POST /api/supply-orders: an order of catalogue lines for one supplier, by the caller. */
export const createSupplyOrder = (deps: Deps, ctx: SignedInContext, input: TCreateSupplyOrder): Promise<TSupplyOrder> =>
  inTransaction(deps, (tx, raise) => placeOrder(deps, tx, raise, ctx, { supplierId: input.supplierId, items: input.items, notes: input.notes ?? null }));

/**
 * The order, locked, if the caller may see it (a supplier's own; another's is a 404, as for a
 * read), and not changed since the version she sent.
 */
async function lockForChange(tx: Queryable, ctx: SignedInContext, id: string, version: string | undefined): Promise<TSupplyOrderRow> {
  const order = await lockSupplyOrder(tx, id);
  if (!order || !seesSupplyOrder(ctx.user, order)) throw notFound(NOT_FOUND);
  if (version !== undefined && version !== order.updatedAt.toISOString()) throw stale(STALE);
  return order;
}

/** After the order row and its version: strictly later than the version read, so a second writer holding it is refused. */
const nextVersion = (deps: Deps, order: TSupplyOrderRow) => new Date(Math.max(deps.config.now().getTime(), order.updatedAt.getTime() + 1));

/**
 * PUT /api/supply-orders/{id}: a move of SUPPLY_ORDER_WORKFLOW (409 when there is no such move,
 * 403 when it is not the caller's): Start Processing and Ready for Pickup (the requester is told,
 * live), or Cancel Order with its required reason before processing starts. Completion is the
 * pickup's, never a bare status.
 */
export async function moveSupplyOrder(deps: Deps, ctx: SignedInContext, id: string, input: TMoveSupplyOrder): Promise<TSupplyOrder> {
  return inTransaction(deps, async (tx, raise) => {
    const order = await lockForChange(tx, ctx, id, input.updatedAt);
    // Two people pressing the same button: the second is told it was done, not given a second success.
    if (input.status === order.status)
      throw new HttpError('workflow.illegalMove', { message: `This order is already ${SUPPLY_STATUS_LABELS[order.status].toLowerCase()}` });
    const move = decideMove(SUPPLY_ORDER_WORKFLOW, ctx.user, order.status, input.status, order);
    if (move.via) throw new HttpError('workflow.illegalMove', { message: move.via.hint });
    if (move.reasonRequired && !input.statusReason) throw invalid('statusReason', 'Say why the order is cancelled');
    if (!move.takesReason && input.statusReason) throw invalid('statusReason', 'Only a cancellation takes a reason');
    const now = nextVersion(deps, order);
    await tx
      .update(supplyOrders)
      .set({ status: move.to, ...stampsOf(move, now, ctx), ...(move.takesReason ? { statusReason: input.statusReason ?? null } : {}), updatedAt: now })
      .where(eq(supplyOrders.id, id));
    await recordAudit(tx, ctx, { action: `supply.${move.to}`, entityType: 'supply_order', entityId: id });
    const notice = noticeOf(ctx, order);
    if (move.to === 'processing') await resolveSupplyNotices(tx, raise, id, ['supply_ordered']);
    if (move.to === 'ready_for_pickup') await noticeSupplyReady(tx, raise, order.requestedById, notice);
    if (move.to === 'cancelled') await noticeSupplyCancelled(tx, raise, order.supplierId, notice, input.statusReason!);
    raise({ type: 'supply.changed', orderId: id, supplierId: order.supplierId, actorId: ctx.user.id });
    return written(tx, ctx, id);
  });
}

/**
 * POST /api/supply-orders/{id}/pickup: the order is picked up (the workflow's completion, by those
 * who order). Each line records what came (in full unless the request says fewer: a short line),
 * and what came is added to stock as receipts, in the same transaction.
 */
export async function pickUpSupplyOrder(deps: Deps, ctx: SignedInContext, id: string, input: TPickUpSupplyOrder): Promise<TSupplyOrder> {
  return inTransaction(deps, async (tx, raise) => {
    const order = await lockForChange(tx, ctx, id, input.updatedAt);
    const move = decideMove(SUPPLY_ORDER_WORKFLOW, ctx.user, order.status, 'completed', order);
    const received = new Map<string, number>();
    const errors: { path: string; message: string }[] = [];
    (input.lines ?? []).forEach((line, i) => {
      const ordered = order.items.find((l) => l.itemId === line.itemId);
      if (!ordered) errors.push({ path: `lines.${i}.itemId`, message: 'Not a line of this order' });
      else if (received.has(line.itemId)) errors.push({ path: `lines.${i}.itemId`, message: 'Each line once' });
      else if (line.receivedQuantity > ordered.quantity)
        errors.push({ path: `lines.${i}.receivedQuantity`, message: `At most the ${ordered.quantity} ordered` });
      received.set(line.itemId, line.receivedQuantity);
    });
    if (errors.length > 0) throw invalidFields(errors);
    const now = nextVersion(deps, order);
    const items = order.items.map((line) => ({ ...line, receivedQuantity: received.get(line.itemId) ?? line.quantity }));
    for (const line of items) {
      if (line.receivedQuantity > 0) {
        await addMovement(tx, { itemId: line.itemId, kind: 'receipt', quantity: line.receivedQuantity, orderId: id, actorId: ctx.user.id, at: now });
      }
    }
    await tx
      .update(supplyOrders)
      .set({ status: move.to, items, ...stampsOf(move, now, ctx), updatedAt: now })
      .where(eq(supplyOrders.id, id));
    await recordAudit(tx, ctx, { action: 'supply.completed', entityType: 'supply_order', entityId: id });
    await resolveSupplyNotices(tx, raise, id, ['supply_ordered', 'supply_ready']);
    raise({ type: 'supply.changed', orderId: id, supplierId: order.supplierId, actorId: ctx.user.id });
    return written(tx, ctx, id);
  });
}
