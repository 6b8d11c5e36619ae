import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabInboxDetail, TRejectLabInbox } from '#domain/lab-interfaces';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabInbox } from './lab-inbox.ts';
import { setLabInboxMessage } from './lab-inbox-message.ts';

export interface TRejectLabInboxRequest {
  id: string;
  body: TRejectLabInbox;
}

/**
 * POST /api/lab-inbox/:id/reject: a waiting message nobody should file, with why (kept, never
 * deleted). 400 without a reason; 409 `record.stale`, or `workflow.illegalMove` once someone
 * else filed or rejected it.
 */
export async function rejectLabInboxMessage({ id, body }: TRejectLabInboxRequest): Promise<TLabInboxDetail> {
  const response = await apiRequest('POST', `/api/lab-inbox/${encodeURIComponent(id)}/reject`, body);
  return (await response.json()) as TLabInboxDetail;
}

export function useRejectLabInboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectLabInboxMessage,
    onSuccess: (message) => setLabInboxMessage(queryClient, message),
    onSettled: () => void invalidateLabInbox(queryClient),
  });
}
