import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFileLabInbox, TLabInboxDetail } from '#domain/lab-interfaces';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabInbox } from './lab-inbox.ts';
import { setLabInboxMessage } from './lab-inbox-message.ts';
import { invalidateLabOrders } from './lab-orders.ts';

export interface TFileLabInboxRequest {
  id: string;
  body: TFileLabInbox;
}

/**
 * POST /api/lab-inbox/:id/file: each report of a waiting message to an order, or to a new order
 * for a patient (one entry per report, in order). 400 names the entry refused
 * (`groups.N.orderId`, `groups.N.patientId`); 409 `record.stale`, or `workflow.illegalMove` once
 * someone else filed or rejected it.
 */
export async function fileLabInboxMessage({ id, body }: TFileLabInboxRequest): Promise<TLabInboxDetail> {
  const response = await apiRequest('POST', `/api/lab-inbox/${encodeURIComponent(id)}/file`, body);
  return (await response.json()) as TLabInboxDetail;
}

export function useFileLabInboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fileLabInboxMessage,
    onSuccess: (message) => setLabInboxMessage(queryClient, message),
    // Filed or refused, the queue may have moved, and filing changes orders (results in, a new order).
    onSettled: () => void Promise.all([invalidateLabInbox(queryClient), invalidateLabOrders(queryClient)]),
  });
}
