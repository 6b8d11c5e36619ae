import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { callsForAttention, type TNotification } from '#domain/notifications';
import { useMarkNotificationRead } from '../../api/notifications/mark-notification-read.ts';
import { useNotifications } from '../../api/notifications/notifications.ts';
import { NotificationStates } from '../../components/notifications/notification-states.tsx';
import { NotificationSummary } from '../../components/notifications/notification-summary.tsx';
import { notificationStyle } from '../../components/notifications/notification-style.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { cn } from '../../lib/utils.ts';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** Spec section 9: the panel lists this many, then 'View All (count)'. */
export const DASHBOARD_NOTIFICATIONS = 5;

/**
 * The dashboard's 'Active Notifications' panel (spec section 2): at most 5, the rest behind
 * 'View All (count)'; dismissing one marks it read, the list is read again and it drops out.
 */
export function ActiveNotifications() {
  const query = useDeferredQuery(useNotifications());
  const { data } = query;
  const [showAll, setShowAll] = useState(false);
  // Active and not yet dismissed: what the panel is for (spec section 4).
  const active = data?.filter(callsForAttention) ?? [];
  // A dismissed row goes away with its focused button; focus then moves to the heading rather
  // than being dropped on <body>, where a keyboard user would start over from the top.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body) {
      refocus.current = false;
      headingRef.current?.focus();
    }
  }, [data]);
  // Dismissing the last one in the full list closes it for good, not until the next arrives.
  useEffect(() => {
    if (showAll && data && !data.some(callsForAttention)) setShowAll(false);
  }, [showAll, data]);

  return (
    <Card data-testid="active-notifications">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 p-4 sm:p-5">
        <CardTitle ref={headingRef} tabIndex={-1} id="active-notifications-heading" className="focus:outline-none">
          Active Notifications
        </CardTitle>
        {active.length > DASHBOARD_NOTIFICATIONS && (
          <Button variant="outline" size="sm" onClick={() => setShowAll(true)} data-testid="view-all-notifications">
            View All ({active.length})
          </Button>
        )}
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-5 sm:pt-0">
        <NotificationStates query={query} count={active.length} emptyText="No active notifications" emptyTestId="notifications-empty">
          <NotificationList
            notifications={active.slice(0, DASHBOARD_NOTIFICATIONS)}
            labelledBy="active-notifications-heading"
            onDismiss={() => (refocus.current = true)}
          />
        </NotificationStates>
      </CardContent>
      <Dialog open={showAll} onOpenChange={setShowAll}>
        <DialogContent className="max-w-2xl p-4 sm:p-6" data-testid="all-notifications-dialog">
          <DialogHeader>
            <DialogTitle>All Active Notifications ({active.length})</DialogTitle>
            <DialogDescription>Dismissing a notification marks it as read.</DialogDescription>
          </DialogHeader>
          <NotificationList notifications={active} />
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function NotificationList({
  notifications,
  labelledBy,
  onDismiss,
}: {
  notifications: TNotification[];
  /** The heading that names the list; in the dialog its title already does. */
  labelledBy?: string;
  onDismiss?: () => void;
}) {
  return (
    <ul aria-labelledby={labelledBy} className="space-y-3">
      {notifications.map((notification) => (
        <ActiveNotification key={notification.id} notification={notification} onDismiss={onDismiss} />
      ))}
    </ul>
  );
}

function ActiveNotification({ notification, onDismiss }: { notification: TNotification; onDismiss?: (() => void) | undefined }) {
  const dismiss = useMarkNotificationRead();
  const style = notificationStyle(notification.type);
  return (
    <li data-testid="active-notification" data-type={notification.type} className={cn('flex items-start gap-2 rounded-lg border p-3', style.surface)}>
      <NotificationSummary notification={notification} />
      <Button
        variant="ghost"
        size="icon"
        className="size-8 shrink-0 text-slate-700 hover:bg-white/70"
        aria-label={`Dismiss: ${notification.title}`}
        title="Dismiss"
        disabled={dismiss.isPending}
        onClick={() => {
          onDismiss?.();
          dismiss.mutate(notification.id, { onError: (error) => reportMutationError(error, 'Failed to dismiss the notification') });
        }}
      >
        <X aria-hidden="true" />
      </Button>
    </li>
  );
}
