import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabOrderDetail } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotifications } from '../notifications/notifications.ts';
import { setLabOrder } from './lab-order.ts';
import { invalidateLabOrders } from './lab-orders.ts';

/**
 * POST /api/lab-orders/:id/acknowledge: the ordering provider (or whoever reviews anyone's) has
 * seen the critical value; its notices are resolved for everyone. 409 `workflow.illegalMove` when
 * no alert is open any more.
 */
export async function acknowledgeLabCritical(id: string): Promise<TLabOrderDetail> {
  const response = await apiRequest('POST', `/api/lab-orders/${encodeURIComponent(id)}/acknowledge`);
  return (await response.json()) as TLabOrderDetail;
}

export function useAcknowledgeLabCritical() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeLabCritical,
    onSuccess: (order) => setLabOrder(queryClient, order),
    onSettled: () => {
      void invalidateLabOrders(queryClient);
      // The alert's notice leaves the bell (the live message says so too, when the socket is up).
      void invalidateNotifications(queryClient);
    },
  });
}
