import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabOrderDetail } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { setLabOrder } from './lab-order.ts';
import { invalidateLabOrders } from './lab-orders.ts';

/**
 * POST /api/lab-orders/:id/review: the results are reviewed (and an open critical alert
 * acknowledged with them). 403 for someone else's order unless the caller reviews anyone's;
 * 409 `record.stale`, or `workflow.illegalMove` when already reviewed.
 */
export async function reviewLabOrder({ id, updatedAt }: { id: string; updatedAt: string }): Promise<TLabOrderDetail> {
  const response = await apiRequest('POST', `/api/lab-orders/${encodeURIComponent(id)}/review`, { updatedAt });
  return (await response.json()) as TLabOrderDetail;
}

export function useReviewLabOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewLabOrder,
    onSuccess: (order) => setLabOrder(queryClient, order),
    onSettled: () => void invalidateLabOrders(queryClient),
  });
}
