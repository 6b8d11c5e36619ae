import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TNotification } from '#domain/notifications';
import { fetchQueryKey } from '../../lib/api-request.ts';

const notificationsKey = ['/api/notifications'] as const;

/** GET /api/notifications: the signed-in user's own notifications. */
export function fetchNotifications(): Promise<TNotification[]> {
  return fetchQueryKey<TNotification[]>(notificationsKey);
}

export function notificationsQueryOptions() {
  return queryOptions({ queryKey: notificationsKey, queryFn: fetchNotifications });
}

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}

/** After a notification changed (marked read). */
export function invalidateNotifications(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: notificationsKey });
}
