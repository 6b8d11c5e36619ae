import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSaveSupplyItemInput, TSupplyItem } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * PUT /api/supply-items/:id (supplies.manage): the item's catalogue fields (never its stock),
 * against the version read (`updatedAt`: 409 `record.stale`). 400 names each refused field.
 */
export async function updateSupplyItem({ id, body }: { id: string; body: Omit<TSaveSupplyItemInput, 'openingQuantity'> }): Promise<TSupplyItem> {
  const response = await apiRequest('PUT', `/api/supply-items/${encodeURIComponent(id)}`, body);
  return (await response.json()) as TSupplyItem;
}

export function useUpdateSupplyItem() {
  const queryClient = useQueryClient();
  // Refused or not, what is shown may be out of date (someone saved it first).
  return useMutation({ mutationFn: updateSupplyItem, onSettled: () => void invalidateSupplies(queryClient) });
}
