import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOrderSuggestions, TSupplyOrder } from '#domain/supplies';
import { apiRequest } from '../../lib/api-request.ts';
import { setSupplyOrder } from './supply-order.ts';
import { invalidateSupplies } from './supply-keys.ts';

/**
 * POST /api/supply-suggestions/order (supplies.order): 201 with one order made of the named
 * suggestions (a supplier group's open ones when none are named), placed with `supplierId`.
 */
export async function orderSupplySuggestions(body: TOrderSuggestions): Promise<TSupplyOrder> {
  const response = await apiRequest('POST', '/api/supply-suggestions/order', body);
  return (await response.json()) as TSupplyOrder;
}

export function useOrderSupplySuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: orderSupplySuggestions,
    onSuccess: (order) => setSupplyOrder(queryClient, order),
    onSettled: () => void invalidateSupplies(queryClient),
  });
}
