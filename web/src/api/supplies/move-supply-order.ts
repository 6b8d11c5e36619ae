import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TMoveSupplyOrder, TSupplyOrder } from '#domain/supplies';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { apiRequest } from '../../lib/api-request.ts';
import { setSupplyOrder } from './supply-order.ts';
import { invalidateSupplies } from './supply-keys.ts';

export interface TMoveSupplyOrderRequest {
  id: string;
  /** 'processing', 'ready_for_pickup', or 'cancelled' with its reason; with the `updatedAt` of the order as shown. */
  changes: TMoveSupplyOrder;
}

/**
 * PUT /api/supply-orders/:id: a move of the order's workflow. 409 `workflow.illegalMove` (no
 * such move from its status now) or `record.stale`; 403 for a role the move is not for.
 */
export async function moveSupplyOrder({ id, changes }: TMoveSupplyOrderRequest): Promise<TSupplyOrder> {
  const response = await apiRequest('PUT', `/api/supply-orders/${encodeURIComponent(id)}`, changes);
  return (await response.json()) as TSupplyOrder;
}

export function useMoveSupplyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveSupplyOrder,
    onSuccess: (order) => setSupplyOrder(queryClient, order),
    // Refused or not, what is shown may be out of date (someone else moved it first).
    onSettled: () => void invalidateSupplies(queryClient),
  });
}

/** Someone else changed this order after it was read, or moved it where this move no longer applies. */
export function isOutdatedSupplyOrder(error: unknown): boolean {
  const code = apiErrorCode(error);
  return code === 'record.stale' || code === 'workflow.illegalMove';
}
