import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSaveSupplyItemInput, TSupplyItem } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-items (supplies.manage): 201 with the item; its opening stock, when given,
 * is its first movement. 400 names each refused field; 409 a name already in the catalogue.
 */
export async function createSupplyItem(body: TSaveSupplyItemInput): Promise<TSupplyItem> {
  const response = await apiRequest('POST', '/api/supply-items', body);
  return (await response.json()) as TSupplyItem;
}

export function useCreateSupplyItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSupplyItem, onSuccess: () => void invalidateSupplies(queryClient) });
}
