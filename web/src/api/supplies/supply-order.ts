import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TSupplyOrder } from '#domain/supplies';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { supplyOrdersRootKey } from './supply-keys.ts';

const supplyOrderKey = (id: string) => [...supplyOrdersRootKey, id] as const;

/** GET /api/supply-orders/:id: one order with its lines (404 when unknown, or another supplier's). */
export function fetchSupplyOrder(id: string): Promise<TSupplyOrder> {
  return fetchQueryKey<TSupplyOrder>(supplyOrderKey(id));
}

export function supplyOrderQueryOptions(id: string) {
  return queryOptions({ queryKey: supplyOrderKey(id), queryFn: () => fetchSupplyOrder(id) });
}

export function useSupplyOrder(id: string) {
  return useQuery(supplyOrderQueryOptions(id));
}

/** A write answered with the order as it now is: shown at once, before the lists are read again. */
export function setSupplyOrder(client: QueryClient, order: TSupplyOrder): void {
  client.setQueryData(supplyOrderKey(order.id), order);
}
