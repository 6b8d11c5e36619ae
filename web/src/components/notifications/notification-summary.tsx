import { formatDistanceToNowStrict } from 'date-fns';
import type { TNotification } from '#domain/notifications';
import { cn } from '../../lib/utils.ts';
import { notificationStyle } from './notification-style.ts';

// One formatter for every notification: toLocaleString() builds a new one per call, and that
// was the costliest part of drawing the dashboard.
let exactTime: Intl.DateTimeFormat | undefined;

/** When it came, in words ('5 minutes ago'), with the exact time for hover and screen readers. */
function When({ createdAt }: { createdAt: string }) {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return null;
  exactTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <time dateTime={createdAt} title={exactTime.format(date)} className="text-xs text-slate-600">
      {formatDistanceToNowStrict(date, { addSuffix: true })}
    </time>
  );
}

/** A notification's icon, type, title, message and age: the part the bell and the dashboard share. */
export function NotificationSummary({ notification, compact = false }: { notification: TNotification; compact?: boolean }) {
  const style = notificationStyle(notification.type);
  const Icon = style.icon;
  return (
    <div className="flex min-w-0 flex-1 items-start gap-2 sm:gap-3">
      <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-full', !compact && 'sm:size-9', style.badge)}>
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-[11px] font-semibold uppercase tracking-wide text-slate-700">{style.label}</p>
        <p className="break-words text-sm font-semibold text-slate-900">{notification.title}</p>
        {notification.message && <p className="break-words text-sm text-slate-700">{notification.message}</p>}
        <When createdAt={notification.createdAt} />
      </div>
    </div>
  );
}
