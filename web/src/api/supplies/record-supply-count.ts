import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRecordSupplyCount, TSupplyItem } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-items/:id/count (supplies.manage): what is on the shelf. A count that
 * differs from the stock on record needs its reason (400 on `reason` without one).
 */
export async function recordSupplyCount({ id, body }: { id: string; body: TRecordSupplyCount }): Promise<TSupplyItem> {
  const response = await apiRequest('POST', `/api/supply-items/${encodeURIComponent(id)}/count`, body);
  return (await response.json()) as TSupplyItem;
}

export function useRecordSupplyCount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: recordSupplyCount, onSettled: () => void invalidateSupplies(queryClient) });
}
