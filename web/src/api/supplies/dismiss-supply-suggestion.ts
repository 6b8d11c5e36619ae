import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateSupplies } from './supply-keys.ts';

/** POST /api/supply-suggestions/:id/dismiss (supplies.order): 204; the suggestion is not ordered. */
export async function dismissSupplySuggestion(id: string): Promise<void> {
  await apiRequest('POST', `/api/supply-suggestions/${encodeURIComponent(id)}/dismiss`);
}

export function useDismissSupplySuggestion() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: dismissSupplySuggestion, onSettled: () => void invalidateSupplies(queryClient) });
}
