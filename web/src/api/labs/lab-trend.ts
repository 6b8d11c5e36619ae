import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZLabTrendPoint } from '#domain/labs';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { labOrdersRootKey } from './lab-orders.ts';

export type TLabTrendPoint = z.infer<typeof ZLabTrendPoint>;

const trendKey = (orderId: string, analyteId: string) => [...labOrdersRootKey, orderId, 'trend', analyteId] as const;

/** GET /api/lab-orders/:id/trend/:analyteId: the order's patient's values of one analyte (the latest 50), oldest first. */
export function fetchLabTrend(orderId: string, analyteId: string): Promise<TLabTrendPoint[]> {
  return fetchQueryKey<TLabTrendPoint[]>(trendKey(orderId, analyteId));
}

export function labTrendQueryOptions(orderId: string, analyteId: string) {
  return queryOptions({ queryKey: trendKey(orderId, analyteId), queryFn: () => fetchLabTrend(orderId, analyteId) });
}

export function useLabTrend(orderId: string, analyteId: string) {
  return useQuery(labTrendQueryOptions(orderId, analyteId));
}
