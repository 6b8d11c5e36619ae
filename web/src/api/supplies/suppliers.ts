import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchQueryKey } from '../../lib/api-request.ts';

export interface TSupplier {
  id: string;
  name: string;
}

const suppliersKey = ['/api/supplies/suppliers'] as const;

/** GET /api/supplies/suppliers (supplies.order or supplies.manage): the active supplier accounts, for the supplier picker. */
export function fetchSuppliers(): Promise<TSupplier[]> {
  return fetchQueryKey<TSupplier[]>(suppliersKey);
}

export function suppliersQueryOptions() {
  return queryOptions({ queryKey: suppliersKey, queryFn: fetchSuppliers });
}

export function useSuppliers() {
  return useQuery(suppliersQueryOptions());
}
