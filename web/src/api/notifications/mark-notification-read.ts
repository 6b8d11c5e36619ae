import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotifications } from './notifications.ts';

/** PUT /api/notifications/:id/read: the user's own notification, dismissed (spec section 2, dashboard). */
export async function markNotificationRead(id: string): Promise<void> {
  await apiRequest('PUT', `/api/notifications/${encodeURIComponent(id)}/read`);
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    // The bell's count and the dashboard's panel both read the list.
    onSuccess: () => invalidateNotifications(queryClient),
  });
}
