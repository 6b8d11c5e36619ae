import { useInfiniteQuery } from '@tanstack/react-query';
import type { TSupplyOrderStatus } from '#domain/orders';
import type { TSupplyOrder } from '#domain/supplies';
import { queryKeyToUrl } from '../../lib/api-request.ts';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { supplyOrdersRootKey } from './supply-keys.ts';

/** Rows per request; 'Load more' reads the next. */
export const SUPPLY_ORDERS_PAGE_SIZE = 20;

/** Which orders (GET /api/supply-orders?view=); the server adds the caller's scope (a supplier's own). */
export interface TSupplyOrderFilter {
  view: 'open' | 'done' | 'all';
  status?: TSupplyOrderStatus | undefined;
  /** Only the caller's own requests. */
  mine?: boolean | undefined;
  limit?: number | undefined;
}

const params = (filter: TSupplyOrderFilter) => ({ view: filter.view, status: filter.status, mine: filter.mine ? '1' : undefined });

const listKey = (filter: TSupplyOrderFilter) => [...supplyOrdersRootKey, { ...params(filter), limit: filter.limit ?? SUPPLY_ORDERS_PAGE_SIZE }] as const;

/**
 * GET /api/supply-orders?view=&status=&mine=&limit=&cursor=: the open orders (ordered,
 * processing, ready for pickup; oldest first), the done ones (picked up or cancelled; newest
 * first), or all, a page at a time.
 */
export function supplyOrdersQueryOptions(filter: TSupplyOrderFilter) {
  return pagedQueryOptions<TSupplyOrder>(listKey(filter));
}

export function useSupplyOrders(filter: TSupplyOrderFilter) {
  return useInfiniteQuery(supplyOrdersQueryOptions(filter));
}

/** GET /api/supply-orders/export.csv: the orders as a spreadsheet (a plain download link). */
export function supplyOrdersCsvHref(filter: Pick<TSupplyOrderFilter, 'view' | 'status'>): string {
  return queryKeyToUrl(['/api/supply-orders/export.csv', { view: filter.view, status: filter.status }]);
}
