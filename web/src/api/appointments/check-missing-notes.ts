import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TMissingNotesResult } from '#domain/appointments';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotifications } from '../notifications/notifications.ts';

/**
 * POST /api/appointments/check-missing-notes (scheduler and admin): reminds the staff of completed
 * visits without notes, and tells the schedulers of missed ones. Then the notifications are read again.
 */
export async function checkMissingNotes(): Promise<TMissingNotesResult> {
  const response = await apiRequest('POST', '/api/appointments/check-missing-notes');
  return (await response.json()) as TMissingNotesResult;
}

export function useCheckMissingNotes() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: checkMissingNotes, onSuccess: () => invalidateNotifications(queryClient) });
}
