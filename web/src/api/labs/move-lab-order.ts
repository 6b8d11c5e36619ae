import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabOrderDetail, TUpdateLabOrder } from '#domain/labs';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { apiRequest } from '../../lib/api-request.ts';
import { setLabOrder } from './lab-order.ts';
import { invalidateLabOrders } from './lab-orders.ts';

export interface TMoveLabOrderRequest {
  id: string;
  /** 'pending' (Mark Collected) or 'cancelled' with its reason; with the `updatedAt` of the order as shown. */
  changes: TUpdateLabOrder;
}

/**
 * PUT /api/lab-orders/:id: a move of the order's workflow. 409 `workflow.illegalMove` (no such
 * move from its status now) or `record.stale`; 400 for a cancellation without its reason.
 */
export async function moveLabOrder({ id, changes }: TMoveLabOrderRequest): Promise<TLabOrderDetail> {
  const response = await apiRequest('PUT', `/api/lab-orders/${encodeURIComponent(id)}`, changes);
  return (await response.json()) as TLabOrderDetail;
}

export function useMoveLabOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveLabOrder,
    onSuccess: (order) => setLabOrder(queryClient, order),
    // Refused or not, what is shown may be out of date (someone else moved it first).
    onSettled: () => void invalidateLabOrders(queryClient),
  });
}

/** Someone else changed this order after it was read. */
export function isStaleLabOrder(error: unknown): boolean {
  return apiErrorCode(error) === 'record.stale';
}
