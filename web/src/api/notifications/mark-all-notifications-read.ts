import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotifications } from './notifications.ts';

/** PUT /api/notifications/read-all: every unread notification of the user, marked read. */
export async function markAllNotificationsRead(): Promise<{ count: number }> {
  const response = await apiRequest('PUT', '/api/notifications/read-all');
  return (await response.json()) as { count: number };
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: markAllNotificationsRead, onSuccess: () => invalidateNotifications(queryClient) });
}
