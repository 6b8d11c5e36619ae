import { and, eq } from 'drizzle-orm';
import { suggestedQuantity, type TOrderSuggestions, type TSupplyOrder } from '#domain/supplies';
import { supplySuggestions } from '../../db/schema/supplies.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { placeOrder } from './supply-orders.service.ts';
import {
  listOpenSuggestions,
  lockOpenSuggestions,
  lockReorder,
  openSuggestionIdsOf,
  reorderCandidates,
  settleNeedless,
  upsertSuggestions,
} from './supply-suggestions.queries.ts';

/**
 * Reorder suggestions (issue 31; docs/decisions/supplies.md): drafted by a job, never ordered by
 * it. A person turns a supplier's suggestions into one order in one click, or dismisses one.
 */
export const suggestionsFor = (deps: Deps) => listOpenSuggestions(deps.db);

/**
 * The reorder job: one open suggestion per item whose projected stock is at or below its reorder
 * point (domain/supplies.ts suggestedQuantity), its quantity kept up to date while it is open;
 * those no longer needed are settled. Runs under the reorder lock, so two runs, on one instance
 * or two, never draft a second suggestion for an item. Answers what it did.
 */
export async function draftReorderSuggestions(deps: Deps): Promise<{ drafted: number; settled: number }> {
  return inTransaction(deps, async (tx, raise) => {
    await lockReorder(tx);
    const now = deps.config.now();
    const needed = (await reorderCandidates(tx, now))
      .map((item) => ({ itemId: item.id, quantity: suggestedQuantity(item) }))
      .filter((s): s is { itemId: string; quantity: number } => s.quantity !== null);
    let drafted = 0;
    for (let i = 0; i < needed.length; i += 1000) drafted += (await upsertSuggestions(tx, needed.slice(i, i + 1000), now)).inserted;
    const settled = await settleNeedless(
      tx,
      needed.map((s) => s.itemId),
      now,
    );
    if (drafted > 0 || settled > 0) raise({ type: 'supply.changed', orderId: null, supplierId: null, actorId: null });
    return { drafted, settled };
  });
}

/**
 * POST /api/supply-suggestions/order: suggestions become one order with the supplier named, at
 * their quantities (the order's lines, priced as any order). Without ids: every open suggestion
 * of the items she is preferred for. A suggestion already ordered or dismissed is a 409.
 */
export async function orderSuggestions(deps: Deps, ctx: SignedInContext, input: TOrderSuggestions): Promise<TSupplyOrder> {
  return inTransaction(deps, async (tx, raise) => {
    await lockReorder(tx);
    const ids = input.suggestionIds ?? (await openSuggestionIdsOf(tx, input.supplierId));
    if (ids.length === 0) throw new HttpError('workflow.illegalMove', { message: 'No open suggestions for this supplier' });
    const open = await lockOpenSuggestions(tx, ids);
    if (open.length !== new Set(ids).size)
      throw new HttpError('workflow.illegalMove', { message: 'Some of these suggestions were ordered or dismissed already. Reload to see them.' });
    const order = await placeOrder(deps, tx, raise, ctx, {
      supplierId: input.supplierId,
      items: open.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
      notes: null,
    });
    await recordAudit(tx, ctx, { action: 'supply.suggestions.order', entityType: 'supply_order', entityId: order.id });
    return order;
  });
}

/** POST /api/supply-suggestions/{id}/dismiss: not wanted; the job drafts none for its item for a week. */
export async function dismissSuggestion(deps: Deps, ctx: SignedInContext, id: string): Promise<void> {
  await inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const dismissed = await tx
      .update(supplySuggestions)
      .set({ status: 'dismissed', resolvedAt: now, resolvedById: ctx.user.id, updatedAt: now })
      .where(and(eq(supplySuggestions.id, id), eq(supplySuggestions.status, 'open')))
      .returning({ id: supplySuggestions.id });
    if (dismissed.length === 0) throw new HttpError('record.notFound', { message: 'No open suggestion with this id' });
    await recordAudit(tx, ctx, { action: 'supply.suggestion.dismiss', entityType: 'supply_suggestion', entityId: id });
    raise({ type: 'supply.changed', orderId: null, supplierId: null, actorId: ctx.user.id });
  });
}
