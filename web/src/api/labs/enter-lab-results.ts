import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TEnterLabResultsInput, TLabOrderDetail } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { setLabOrder } from './lab-order.ts';
import { invalidateLabOrders } from './lab-orders.ts';

export interface TEnterLabResultsRequest {
  id: string;
  body: TEnterLabResultsInput;
}

/**
 * PUT /api/lab-orders/:id/results: the first entry moves the order to 'Results in'; a later one
 * corrects them (with its reason) and reopens review. 400 names each refused value
 * (`results.N.value`); 409 `record.stale` or `workflow.illegalMove` (a cancelled order).
 */
export async function enterLabResults({ id, body }: TEnterLabResultsRequest): Promise<TLabOrderDetail> {
  const response = await apiRequest('PUT', `/api/lab-orders/${encodeURIComponent(id)}/results`, body);
  return (await response.json()) as TLabOrderDetail;
}

export function useEnterLabResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enterLabResults,
    onSuccess: (order) => setLabOrder(queryClient, order),
    onSettled: () => void invalidateLabOrders(queryClient),
  });
}
