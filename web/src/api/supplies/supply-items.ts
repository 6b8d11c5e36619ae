import { useInfiniteQuery } from '@tanstack/react-query';
import type { TSupplyItem, TSupplyItemView } from '#domain/supplies';
import { queryKeyToUrl } from '../../lib/api-request.ts';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { supplyItemsRootKey } from './supply-keys.ts';

/** Rows per request; 'Load more' reads the next. */
export const SUPPLY_ITEMS_PAGE_SIZE = 20;

/** Which list of the catalogue (GET /api/supply-items?view=). */
export interface TSupplyItemFilter {
  view: TSupplyItemView;
  /** Days ahead, for `expiring` (30, 60 or 90). */
  within?: number | undefined;
  /** A search of the names, for `all`. */
  q?: string | undefined;
  /** Retired items too (the admin's catalogue). */
  all?: boolean | undefined;
  limit?: number | undefined;
}

const params = (filter: TSupplyItemFilter) => ({
  view: filter.view,
  within: filter.view === 'expiring' ? filter.within : undefined,
  q: filter.q?.trim() || undefined,
  all: filter.all ? '1' : undefined,
});

const listKey = (filter: TSupplyItemFilter) => [...supplyItemsRootKey, { ...params(filter), limit: filter.limit ?? SUPPLY_ITEMS_PAGE_SIZE }] as const;

/**
 * GET /api/supply-items?view=&within=&q=&all=&limit=&cursor=: low stock (furthest below its
 * reorder point first), expiring within N days (soonest first, expired included), or every item
 * by name, a page at a time.
 */
export function supplyItemsQueryOptions(filter: TSupplyItemFilter) {
  return pagedQueryOptions<TSupplyItem>(listKey(filter));
}

export function useSupplyItems(filter: TSupplyItemFilter, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...supplyItemsQueryOptions(filter), enabled: options.enabled ?? true });
}

/** GET /api/supply-items/export.csv: the same list as a spreadsheet (a plain download link). */
export function supplyItemsCsvHref(filter: Pick<TSupplyItemFilter, 'view' | 'within'>): string {
  return queryKeyToUrl(['/api/supply-items/export.csv', params(filter)]);
}
