import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabOrder, TLabView } from '#domain/labs';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/** Every lab order read (lists, one order, its corrections, a trend) starts with this segment. */
export const labOrdersRootKey = ['/api/lab-orders'] as const;

/** Rows per request; 'Load more' reads the next. */
export const LAB_ORDERS_PAGE_SIZE = 20;

/** Which list (GET /api/lab-orders?view=), and one patient's orders. The server adds the caller's scope. */
export interface TLabOrderFilter {
  view: TLabView;
  patientId?: string | undefined;
}

const listKey = (filter: TLabOrderFilter) => [...labOrdersRootKey, { view: filter.view, patientId: filter.patientId, limit: LAB_ORDERS_PAGE_SIZE }] as const;

/**
 * GET /api/lab-orders?view=&patientId=&limit=&cursor=: outstanding (most urgent, then oldest),
 * results to review (critical, abnormal, then oldest), or all (newest first), a page at a time.
 */
export function labOrdersQueryOptions(filter: TLabOrderFilter) {
  // Other people's changes arrive live (lab_changed), and the screen reads the lists again then.
  return pagedQueryOptions<TLabOrder>(listKey(filter));
}

export function useLabOrders(filter: TLabOrderFilter) {
  return useInfiniteQuery(labOrdersQueryOptions(filter));
}

/** After any lab write, or a lab order changed live: every list, order, history and trend is read again. */
export function invalidateLabOrders(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: labOrdersRootKey });
}
