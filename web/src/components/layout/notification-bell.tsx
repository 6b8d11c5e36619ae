import { Bell, Check, CheckCheck } from 'lucide-react';
import { useId, useRef } from 'react';
import { callsForAttention, type TNotification } from '#domain/notifications';
import { useMarkAllNotificationsRead } from '../../api/notifications/mark-all-notifications-read.ts';
import { useMarkNotificationRead } from '../../api/notifications/mark-notification-read.ts';
import { useNotifications } from '../../api/notifications/notifications.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { formatBadgeCount } from '../../lib/user-display.ts';
import { cn } from '../../lib/utils.ts';
import { NotificationSummary } from '../notifications/notification-summary.tsx';
import { Button } from '../ui/button.tsx';
import { DeferredPopover } from '../ui/deferred-popover.tsx';
import { Spinner } from '../ui/spinner.tsx';

/** How many of the newest notifications the bell lists; the dashboard panel has the rest. */
export const BELL_LIST_SIZE = 10;

/**
 * The unread count of the user's own notifications (spec section 2, '99+' above 99), less those
 * someone resolved by doing what they asked. Opening it lists the newest ones, read or not,
 * each with 'Mark as read' (or 'Done' once resolved), and 'Mark all as read'.
 */
export function NotificationBell() {
  const { data: notifications, isLoading, isError } = useNotifications();
  const unread = notifications?.filter(callsForAttention).length ?? 0;
  const label = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;
  const headingId = useId();
  // A row's button disappears once it is read; focus then stays in the panel, not on <body>.
  const listRef = useRef<HTMLUListElement>(null);

  return (
    <DeferredPopover
      trigger={{
        'aria-label': label,
        'data-testid': 'notification-bell',
        className:
          'relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-slate-100',
        children: (
          <>
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
          </>
        ),
      }}
      contentProps={{ align: 'end', 'aria-labelledby': headingId, 'data-testid': 'notification-popover', className: 'w-96 p-0' }}
      content={() => (
        <>
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <h2 id={headingId} className="text-base font-semibold text-slate-900">
              Notifications
            </h2>
            <MarkAllRead unread={unread} onDone={() => listRef.current?.focus()} />
          </div>
          {isLoading ? (
            <div role="status" className="flex justify-center p-6">
              <Spinner className="size-5" />
              <span className="sr-only">Loading notifications</span>
            </div>
          ) : isError && !notifications ? (
            <p role="alert" className="p-4 text-sm text-red-800">
              Could not load notifications.
            </p>
          ) : !notifications?.length ? (
            <p className="p-6 text-center text-sm text-slate-600">No notifications</p>
          ) : (
            <ul
              ref={listRef}
              tabIndex={-1}
              aria-labelledby={headingId}
              className="max-h-[min(28rem,calc(100vh-8rem))] divide-y overflow-y-auto focus:outline-none"
            >
              {notifications.slice(0, BELL_LIST_SIZE).map((notification) => (
                <BellItem key={notification.id} notification={notification} onRead={() => listRef.current?.focus()} />
              ))}
            </ul>
          )}
          {notifications && notifications.length > BELL_LIST_SIZE && (
            <p className="border-t px-4 py-2 text-xs text-slate-600">
              Showing the latest {BELL_LIST_SIZE} of {notifications.length}.
            </p>
          )}
        </>
      )}
    />
  );
}

function MarkAllRead({ unread, onDone }: { unread: number; onDone: () => void }) {
  const markAll = useMarkAllNotificationsRead();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="h-8 px-2 text-primary"
      disabled={unread === 0 || markAll.isPending}
      onClick={() => markAll.mutate(undefined, { onSuccess: onDone, onError: (error) => reportMutationError(error, 'Failed to mark notifications as read') })}
    >
      {markAll.isPending ? <Spinner className="size-4 text-current" /> : <CheckCheck aria-hidden="true" />}
      Mark all as read
    </Button>
  );
}

function BellItem({ notification, onRead }: { notification: TNotification; onRead: () => void }) {
  const markRead = useMarkNotificationRead();
  return (
    <li
      data-testid="bell-notification"
      data-read={notification.isRead}
      data-resolved={!notification.isActive}
      className={cn('flex items-start gap-2 px-4 py-3', callsForAttention(notification) ? 'bg-blue-50/60' : 'bg-white')}
    >
      <NotificationSummary notification={notification} compact />
      {!notification.isActive ? (
        <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700" title="Someone did what this asked">
          Done
        </span>
      ) : notification.isRead ? (
        <span className="sr-only">Read</span>
      ) : (
        <Button
          variant="ghost"
          size="icon"
          className="size-8 shrink-0 text-slate-700"
          aria-label={`Mark as read: ${notification.title}`}
          title="Mark as read"
          disabled={markRead.isPending}
          onClick={() =>
            markRead.mutate(notification.id, { onSuccess: onRead, onError: (error) => reportMutationError(error, 'Failed to mark the notification as read') })
          }
        >
          {markRead.isPending ? <Spinner className="size-4 text-current" /> : <Check aria-hidden="true" />}
        </Button>
      )}
    </li>
  );
}
