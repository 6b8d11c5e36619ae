import { formatDistanceToNowStrict } from 'date-fns';
import { Link } from 'wouter';
import { formatClinicTime } from '#domain/clinic-time';
import { LAB_NOTIFICATION_TYPES, labOrderHref } from '#domain/lab-links';
import type { TNotification } from '#domain/notifications';
import { PRESCRIPTION_NOTIFICATION_TYPES, prescriptionHref } from '#domain/prescription-links';
import { SUPPLY_NOTIFICATION_TYPES, supplyOrderHref } from '#domain/supply-links';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { cn } from '../../lib/utils.ts';
import { notificationStyle } from './notification-style.ts';

/**
 * When it came, in words ('5 minutes ago'), with the exact time on the clinic's clock for hover
 * and screen readers (formatClinicTime keeps one formatter per zone: building one per call was
 * the costliest part of drawing the dashboard).
 */
function When({ createdAt }: { createdAt: string }) {
  const { timeZone } = useClinicTimeZone();
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={createdAt} title={formatClinicTime(date, timeZone)} className="text-xs text-slate-600">
      {formatDistanceToNowStrict(date, { addSuffix: true })}
    </time>
  );
}

const isOneOf = (types: readonly string[], n: TNotification) => types.includes(n.type) && Boolean(n.entityId);

/**
 * Where a notification leads, if it is about a record: its lab order (only those who read lab
 * orders are sent them), its supply order (the supplier it was placed with, or its requester) or
 * the prescription waiting for her signature;
 * about her account, to her Security page.
 */
function linkOf(n: TNotification): { href: string; text: string } | null {
  if (isOneOf(LAB_NOTIFICATION_TYPES, n)) return { href: labOrderHref(n.entityId!), text: 'Open the lab order' };
  if (isOneOf(SUPPLY_NOTIFICATION_TYPES, n)) return { href: supplyOrderHref(n.entityId!), text: 'Open the supply order' };
  if (isOneOf(PRESCRIPTION_NOTIFICATION_TYPES, n)) return { href: prescriptionHref(n.entityId!), text: 'Open the prescription' };
  // About her own account (factors reset, an API client asking to read as her): where she acts on it.
  if (n.type === 'account_changed') return { href: '/account/security', text: 'Open Security' };
  return null;
}

/** A notification's icon, type, title, message and age, and a link to its order: the part the bell and the dashboard share. */
export function NotificationSummary({ notification, compact = false }: { notification: TNotification; compact?: boolean }) {
  const style = notificationStyle(notification.type);
  const Icon = style.icon;
  const link = linkOf(notification);
  return (
    <div className="flex min-w-0 flex-1 items-start gap-2 sm:gap-3">
      <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-full', !compact && 'sm:size-9', style.badge)}>
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-[11px] font-semibold uppercase tracking-wide text-slate-700">{style.label}</p>
        <p className="break-words text-sm font-semibold text-slate-900">{notification.title}</p>
        {link && (
          <Link href={link.href} className="text-sm font-medium text-blue-800 hover:underline">
            {link.text}
            <span className="sr-only">: {notification.title}</span>
          </Link>
        )}
        {notification.message && <p className="break-words text-sm text-slate-700">{notification.message}</p>}
        <When createdAt={notification.createdAt} />
      </div>
    </div>
  );
}
