import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRecordSupplyUse, TSupplyItem } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-items/:id/use (supplies.stock): 'used 2 boxes', a movement taking them off
 * the stock. 409 `supply.notEnoughStock` when more than is on hand.
 */
export async function recordSupplyUse({ id, body }: { id: string; body: TRecordSupplyUse }): Promise<TSupplyItem> {
  const response = await apiRequest('POST', `/api/supply-items/${encodeURIComponent(id)}/use`, body);
  return (await response.json()) as TSupplyItem;
}

export function useRecordSupplyUse() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: recordSupplyUse, onSettled: () => void invalidateSupplies(queryClient) });
}
