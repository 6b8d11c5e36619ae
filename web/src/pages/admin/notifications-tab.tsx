import { BellOff } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import { useNotifications } from '../../api/notifications/notifications.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { NotificationSummary } from '../../components/notifications/notification-summary.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';

/** Spec section 9: the admin notification list shows this many. */
export const ADMIN_NOTIFICATIONS = 10;

/**
 * The Admin Panel's Notifications tab (spec section 2): the user's first 10 notifications,
 * newest first, read ones too, each marked Read or Unread; or 'No notifications'. It reads the
 * same list as the bell and the dashboard (GET /api/notifications, which includes read ones),
 * so a live notification or a dismissal elsewhere shows here too.
 */
export function NotificationsTab(_props: { user: TCurrentUser }) {
  const { data, isLoading, isError, error, refetch } = useNotifications();
  const shown = data?.slice(0, ADMIN_NOTIFICATIONS) ?? [];

  return (
    <Card data-testid="admin-notifications">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle id="admin-notifications-heading">Notifications</CardTitle>
        <CardDescription className="text-slate-600">Your {ADMIN_NOTIFICATIONS} most recent notifications, read and unread</CardDescription>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        {isLoading ? (
          <div role="status">
            <span className="sr-only">Loading notifications</span>
            <div className="space-y-3">
              {[0, 1, 2].map((i) => <Skeleton key={i} className="h-16 w-full" />)}
            </div>
          </div>
        ) : isError && !data ? (
          <ErrorState title="Could not load notifications" error={error} onRetry={() => void refetch()} />
        ) : shown.length === 0 ? (
          <div data-testid="admin-notifications-empty" className="flex flex-col items-center gap-2 py-8 text-center text-sm text-slate-600">
            <BellOff className="size-6 text-slate-400" aria-hidden="true" />
            No notifications
          </div>
        ) : (
          <ul aria-labelledby="admin-notifications-heading" className="divide-y rounded-lg border">
            {shown.map((notification) => (
              <li
                key={notification.id}
                data-testid="admin-notification"
                data-read={notification.isRead}
                className={cn('flex items-start gap-3 p-3', !notification.isRead && 'bg-blue-50/60')}
              >
                <NotificationSummary notification={notification} />
                <Badge
                  data-testid="notification-read-state"
                  className={cn('shrink-0 border-transparent', notification.isRead ? 'bg-slate-100 text-slate-700' : 'bg-blue-100 text-blue-800')}
                >
                  {notification.isRead ? 'Read' : 'Unread'}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
