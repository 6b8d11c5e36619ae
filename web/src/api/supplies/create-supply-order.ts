import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateSupplyOrderInput, TSupplyOrder } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { setSupplyOrder } from './supply-order.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-orders (supplies.order): 201 with the order, numbered and priced by the
 * server from its catalogue (a total sent would be ignored). 400 names each refused field
 * (`items.1.quantity`).
 */
export async function createSupplyOrder(body: TCreateSupplyOrderInput): Promise<TSupplyOrder> {
  const response = await apiRequest('POST', '/api/supply-orders', body);
  return (await response.json()) as TSupplyOrder;
}

export function useCreateSupplyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSupplyOrder,
    onSuccess: (order) => {
      setSupplyOrder(queryClient, order);
      void invalidateSupplies(queryClient);
    },
  });
}
