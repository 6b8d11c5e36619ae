import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAnalytics } from '#domain/analytics';
import { fetchQueryKey } from '../../lib/api-request.ts';

const analyticsKey = ['/api/admin/analytics'] as const;

/** GET /api/admin/analytics: the Admin Panel's charts (clinic-wide counts). */
export function fetchAnalytics(): Promise<TAnalytics> {
  return fetchQueryKey<TAnalytics>(analyticsKey);
}

export function analyticsQueryOptions() {
  return queryOptions({ queryKey: analyticsKey, queryFn: fetchAnalytics });
}

export function useAnalytics() {
  return useQuery(analyticsQueryOptions());
}
