import { Bell } from 'lucide-react';
import { Link } from 'wouter';
import { useNotifications } from '../../api/notifications.ts';
import { formatBadgeCount } from '../../lib/user-display.ts';

/**
 * The unread count of the user's own notifications. It links to the dashboard, whose
 * 'Active Notifications' panel lists and dismisses them (spec section 2).
 */
export function NotificationBell() {
  const { data: notifications } = useNotifications();
  const unread = notifications?.filter((n) => !n.isRead).length ?? 0;
  const label = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;

  return (
    <Link
      href="/"
      aria-label={label}
      data-testid="notification-bell"
      className="relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <Bell className="size-5" aria-hidden="true" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold leading-none text-white"
        >
          {formatBadgeCount(unread)}
        </span>
      )}
    </Link>
  );
}
