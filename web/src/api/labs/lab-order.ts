import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabOrderDetail } from '#domain/labs';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { labOrdersRootKey } from './lab-orders.ts';

const labOrderKey = (id: string) => [...labOrdersRootKey, id] as const;

/** GET /api/lab-orders/:id: one order with its results, each with the range that applied (404 when unknown). */
export function fetchLabOrder(id: string): Promise<TLabOrderDetail> {
  return fetchQueryKey<TLabOrderDetail>(labOrderKey(id));
}

export function labOrderQueryOptions(id: string) {
  return queryOptions({ queryKey: labOrderKey(id), queryFn: () => fetchLabOrder(id) });
}

export function useLabOrder(id: string) {
  return useQuery(labOrderQueryOptions(id));
}

/** A write answered with the order as it now is: shown at once, before the lists are read again. */
export function setLabOrder(client: QueryClient, order: TLabOrderDetail): void {
  client.setQueryData(labOrderKey(order.id), order);
}

/** Reads one order afresh, whatever is cached (after someone else changed it). */
export function reloadLabOrder(client: QueryClient, id: string): Promise<TLabOrderDetail> {
  return client.fetchQuery({ ...labOrderQueryOptions(id), staleTime: 0 });
}
