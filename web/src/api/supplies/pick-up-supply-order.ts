import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPickUpSupplyOrder, TSupplyOrder } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { setSupplyOrder } from './supply-order.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-orders/:id/pickup (supplies.order): the order was picked up, with what came
 * of each line (a line not named came in full); what came is added to the stock. 409 when it is
 * not ready for pickup (any more) or was changed since it was read.
 */
export async function pickUpSupplyOrder({ id, body }: { id: string; body: TPickUpSupplyOrder }): Promise<TSupplyOrder> {
  const response = await apiRequest('POST', `/api/supply-orders/${encodeURIComponent(id)}/pickup`, body);
  return (await response.json()) as TSupplyOrder;
}

export function usePickUpSupplyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pickUpSupplyOrder,
    onSuccess: (order) => setSupplyOrder(queryClient, order),
    onSettled: () => void invalidateSupplies(queryClient),
  });
}
