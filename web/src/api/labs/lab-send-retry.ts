import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabOrders } from './lab-orders.ts';
import { invalidateLabSends } from './lab-sends.ts';

/** POST /api/admin/lab-sends/:id/retry: a failed send queued again now, its tries counted afresh. 409 when it is no longer failed. */
export async function retryLabSend(id: string): Promise<void> {
  await apiRequest('POST', `/api/admin/lab-sends/${encodeURIComponent(id)}/retry`);
}

export function useRetryLabSend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryLabSend,
    // Settled: a 409 means someone else sent it again, and the list should say so. The order's own send changed too.
    onSettled: () => Promise.all([invalidateLabSends(queryClient), invalidateLabOrders(queryClient)]),
  });
}
