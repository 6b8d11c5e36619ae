import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateLabOrderInput, TLabOrderDetail } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { setLabOrder } from './lab-order.ts';
import { invalidateLabOrders } from './lab-orders.ts';

/**
 * POST /api/lab-orders: 201 with the order. The caller is its ordering provider; a test of the
 * catalogue (`testId`) or one named as free text (`orderName`). 400 names the field refused.
 */
export async function createLabOrder(body: TCreateLabOrderInput): Promise<TLabOrderDetail> {
  const response = await apiRequest('POST', '/api/lab-orders', body);
  return (await response.json()) as TLabOrderDetail;
}

export function useCreateLabOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLabOrder,
    onSuccess: (order) => {
      setLabOrder(queryClient, order);
      void invalidateLabOrders(queryClient);
    },
  });
}
