import type { TCurrentUser } from '#domain/auth';
import { useNotifications } from '../../api/notifications/notifications.ts';
import { NotificationStates } from '../../components/notifications/notification-states.tsx';
import { NotificationSummary } from '../../components/notifications/notification-summary.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
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
  const query = useNotifications();
  const shown = query.data?.slice(0, ADMIN_NOTIFICATIONS) ?? [];

  return (
    <Card data-testid="admin-notifications">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle id="admin-notifications-heading">Notifications</CardTitle>
        <CardDescription className="text-slate-600">Your {ADMIN_NOTIFICATIONS} most recent notifications, read and unread</CardDescription>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <NotificationStates query={query} count={shown.length} emptyText="No notifications" emptyTestId="admin-notifications-empty">
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
        </NotificationStates>
      </CardContent>
    </Card>
  );
}
