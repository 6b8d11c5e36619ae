import { zonedDate } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import { SUPPLY_ORDER_PAGE, type TSuppliesSummary, type TSupplyItemListQuery, type TSupplyOrderListQuery } from '#domain/supplies';
import { SUPPLY_STATUS_LABELS } from '#domain/orders';
import type { Deps } from '../../deps.ts';
import { csvFile, csvLine, type TCsvFile } from '../../http/csv.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { scopeOf } from '../../scope/read-scope.ts';
import { allSupplyItems, supplyItemsFor } from './supply-items.service.ts';
import { decodeOrderCursor, listSupplyOrders, openOrderCounts } from './supply-orders.queries.ts';
import { suggestionsFor } from './supply-suggestions.service.ts';

/**
 * GET /api/supplies/summary: the dashboard's figures in the caller's scope: open orders by status
 * (a supplier's own), and for those who keep stock, low stock, expiring within 30 days and open
 * suggestions.
 */
export async function suppliesSummaryFor(deps: Deps, ctx: SignedInContext): Promise<TSuppliesSummary> {
  const keepsStock = can(ctx.user, 'supplies.stock');
  const firstOf = async (view: 'low' | 'expiring') => (await supplyItemsFor(deps, { view, within: 30, limit: 1 })).total;
  const [openOrders, lowStockItems, expiringItems, suggestions] = await Promise.all([
    openOrderCounts(deps.db, scopeOf(ctx, deps.config.now())),
    keepsStock ? firstOf('low') : null,
    keepsStock ? firstOf('expiring') : null,
    can(ctx.user, 'supplies.order') ? suggestionsFor(deps) : null,
  ]);
  return { openOrders, lowStockItems, expiringItems, openSuggestions: suggestions?.length ?? null };
}

const day = (deps: Deps) => zonedDate(deps.config.now(), deps.settings.current().timeZone).replaceAll('-', '');
const dollars = (cents: number) => (cents / 100).toFixed(2);

/** GET /api/supply-items/export.csv: a stock list as CSV, streamed a page at a time. */
export function supplyItemsCsv(deps: Deps, query: Omit<TSupplyItemListQuery, 'limit' | 'cursor'>): TCsvFile {
  async function* lines() {
    yield csvLine([
      'Item',
      'Unit',
      'Pack size',
      'Unit price',
      'On hand',
      'On order',
      'Reorder point',
      'Par level',
      'Low',
      'Lot',
      'Expires',
      'Preferred supplier',
      'Active',
    ]);
    for await (const items of allSupplyItems(deps, query)) {
      yield items
        .map((i) =>
          csvLine([
            i.name,
            i.unit,
            i.packSize,
            dollars(i.unitPriceCents),
            i.onHand,
            i.onOrder,
            i.reorderPoint,
            i.parLevel,
            i.isLow ? 'yes' : 'no',
            i.lot,
            i.expiresOn,
            i.preferredSupplierName,
            i.isActive ? 'yes' : 'no',
          ]),
        )
        .join('');
    }
  }
  return csvFile(`supply-stock-${query.view}-${day(deps)}.csv`, lines);
}

/** GET /api/supply-orders/export.csv: orders in the caller's scope as CSV, one row per line. */
export function supplyOrdersCsv(deps: Deps, ctx: SignedInContext, query: Pick<TSupplyOrderListQuery, 'view' | 'status' | 'mine'>): TCsvFile {
  const scope = scopeOf(ctx, deps.config.now());
  async function* lines() {
    yield csvLine([
      'Order',
      'Status',
      'Ordered',
      'Supplier',
      'Requested by',
      'Item',
      'Unit',
      'Quantity',
      'Received',
      'Unit price',
      'Line total',
      'Order total',
      'Picked up',
      'Picked up by',
      'Reason',
    ]);
    let cursor: string | null = null;
    do {
      const page = await listSupplyOrders(deps.db, scope, {
        view: query.view,
        status: query.status,
        requestedById: query.mine === '1' ? ctx.user.id : undefined,
        limit: SUPPLY_ORDER_PAGE.maxLimit,
        after: cursor ? decodeOrderCursor(cursor) : null,
      });
      yield page.items
        .flatMap((o) =>
          o.items.map((l) =>
            csvLine([
              o.orderNumber,
              SUPPLY_STATUS_LABELS[o.status],
              o.orderedAt,
              o.supplierName,
              o.requestedByName,
              l.name,
              l.unit,
              l.quantity,
              l.receivedQuantity,
              dollars(l.unitPriceCents),
              dollars(l.lineTotalCents),
              dollars(o.totalAmount),
              o.pickedUpAt,
              o.pickedUpByName,
              o.statusReason,
            ]),
          ),
        )
        .join('');
      cursor = page.nextCursor;
    } while (cursor);
  }
  return csvFile(`supply-orders-${query.view}-${day(deps)}.csv`, lines);
}
