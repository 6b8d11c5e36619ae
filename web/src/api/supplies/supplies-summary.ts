import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSuppliesSummary } from '#domain/supplies';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { suppliesSummaryKey } from './supply-keys.ts';

/**
 * GET /api/supplies/summary (supplies.readOrders): open orders by status (a supplier's own, or
 * the clinic's), and for those who keep stock the low, expiring and suggested counts. The
 * dashboard reads it first thing (pages/dashboard/first-reads.ts spells out the same URL).
 */
export function fetchSuppliesSummary(): Promise<TSuppliesSummary> {
  return fetchQueryKey<TSuppliesSummary>(suppliesSummaryKey);
}

export function suppliesSummaryQueryOptions() {
  return queryOptions({ queryKey: suppliesSummaryKey, queryFn: fetchSuppliesSummary });
}

export function useSuppliesSummary(options: { enabled?: boolean } = {}) {
  return useQuery({ ...suppliesSummaryQueryOptions(), enabled: options.enabled ?? true });
}
