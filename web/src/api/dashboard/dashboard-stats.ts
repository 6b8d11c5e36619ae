import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TDashboardStats } from '#domain/dashboard';
import { fetchQueryKey } from '../../lib/api-request.ts';

const dashboardStatsKey = ['/api/dashboard/stats'] as const;

/** GET /api/dashboard/stats: the sidebar's counts and the dashboard's stat cards. */
export function fetchDashboardStats(): Promise<TDashboardStats> {
  return fetchQueryKey<TDashboardStats>(dashboardStatsKey);
}

export function dashboardStatsQueryOptions() {
  return queryOptions({ queryKey: dashboardStatsKey, queryFn: fetchDashboardStats });
}

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}

/** After a change that moves a figure (a patient created or deactivated). */
export function invalidateDashboardStats(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: dashboardStatsKey });
}
