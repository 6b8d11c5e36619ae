import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { TSupplyItem } from '#domain/supplies';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { supplyItemsRootKey } from './supply-keys.ts';

const supplyItemKey = (id: string) => [...supplyItemsRootKey, id] as const;

/** GET /api/supply-items/:id: one item of the catalogue with its stock (404 when unknown). */
export function fetchSupplyItem(id: string): Promise<TSupplyItem> {
  return fetchQueryKey<TSupplyItem>(supplyItemKey(id));
}

export function supplyItemQueryOptions(id: string) {
  return queryOptions({ queryKey: supplyItemKey(id), queryFn: () => fetchSupplyItem(id) });
}

/** Reads one item afresh, whatever is cached (someone saved it after this page read it). */
export function reloadSupplyItem(client: QueryClient, id: string): Promise<TSupplyItem> {
  return client.fetchQuery({ ...supplyItemQueryOptions(id), staleTime: 0 });
}
