import { CalendarClock, Clock, FlaskConical, Stethoscope, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import type { TLabOrder } from '#domain/labs';
import { formatDay, formatDayTime } from '#domain/clinic-time';
import { Button } from '../../components/ui/button.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { CriticalAlertMark, LabFlagBadge, LabPriorityBadge, LabStatusBadge } from './lab-badges.tsx';
import { isOverdue, reviewWait } from './lab-format.ts';

const WAIT_STYLES = {
  fresh: 'text-slate-700',
  amber: 'rounded-md border border-amber-300 bg-amber-50 px-1.5 text-amber-950',
  red: 'rounded-md border border-red-300 bg-red-50 px-1.5 text-red-800',
} as const;

/**
 * One lab order in a list: the patient, the test, its priority, status, worst flag and an open
 * critical alert; when it was ordered and by whom, the day results are expected (overdue said),
 * and for results waiting for review how long they have waited (amber from 7 days, red from 14,
 * in words). 'View' opens the order.
 */
export function LabOrderRow({
  order,
  timeZone,
  today,
  now,
  onOpen,
}: {
  order: TLabOrder;
  timeZone: string;
  /** The clinic's today (YYYY-MM-DD): an expected day before it is overdue. */
  today: string;
  now: Date;
  onOpen: (order: TLabOrder) => void;
}) {
  const headingId = useId();
  const overdue = isOverdue(order, today);
  const waiting = order.status === 'received' && !order.reviewedAt && order.receivedAt ? reviewWait(order.receivedAt, now) : null;
  const expectedToday = order.expectedOn === today && (order.status === 'ordered' || order.status === 'pending');
  return (
    <li data-testid="lab-order-row" data-order-id={order.id} data-status={order.status} data-priority={order.priority} data-flag={order.worstFlag ?? ''}>
      <article
        aria-labelledby={headingId}
        className={cn(
          'flex flex-col gap-3 rounded-lg border bg-white p-3 sm:p-4 lg:flex-row lg:items-center',
          order.criticalAlertId && 'border-red-300 ring-1 ring-red-200',
        )}
      >
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={headingId} className="min-w-0 font-semibold text-slate-900">
              <span className="break-words" data-testid="lab-patient">
                {order.patientName}
              </span>
            </h3>
            <LabPriorityBadge priority={order.priority} />
            <LabStatusBadge status={order.status} />
            {order.worstFlag && <LabFlagBadge flag={order.worstFlag} />}
            {order.criticalAlertId && <CriticalAlertMark />}
          </div>
          <p className="flex min-w-0 items-center gap-1.5 text-sm font-medium text-slate-800" data-testid="lab-test">
            <FlaskConical className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="break-words">{order.orderName}</span>
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
            <span className="flex items-center gap-1" data-testid="lab-ordered">
              <CalendarClock className="size-3.5 shrink-0" aria-hidden="true" />
              Ordered {formatDayTime(order.orderedAt, timeZone)}
            </span>
            {order.providerName && (
              <span className="flex items-center gap-1" data-testid="lab-provider">
                <Stethoscope className="size-3.5 shrink-0" aria-hidden="true" />
                by {order.providerName}
              </span>
            )}
            {order.expectedOn &&
              (overdue ? (
                <span className="flex items-center gap-1 font-semibold text-red-800" data-testid="lab-expected" data-overdue="true">
                  <TriangleAlert className="size-3.5 shrink-0" aria-hidden="true" />
                  Overdue: expected {formatDay(order.expectedOn)}
                </span>
              ) : (
                <span data-testid="lab-expected">{expectedToday ? 'Expected today' : `Expected ${formatDay(order.expectedOn)}`}</span>
              ))}
          </p>
          {waiting && (
            <p className="text-xs">
              <span className={cn('inline-flex items-center gap-1 font-medium', WAIT_STYLES[waiting.age])} data-testid="review-age" data-age={waiting.age}>
                <Clock className="size-3.5 shrink-0" aria-hidden="true" />
                {waiting.text}
              </span>
            </p>
          )}
          {order.status === 'cancelled' && order.statusReason && <p className="text-xs text-slate-600">Cancelled: {order.statusReason}</p>}
          {order.reviewedAt && order.reviewedByName && <p className="text-xs text-slate-600">Reviewed by {order.reviewedByName}</p>}
        </div>
        <div className="lg:shrink-0">
          <Button size="sm" variant="outline" onClick={() => onOpen(order)}>
            View
            <span className="sr-only">
              : {order.orderName} for {order.patientName}
            </span>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** Rows standing in while a list loads, with a status line for screen readers. */
export function LabOrderRowsSkeleton({ rows = 4, label }: { rows?: number; label: string }) {
  return (
    <ListSkeleton
      rows={rows}
      label={label}
      testId="lab-order-skeleton"
      row={
        <>
          <div className="flex-1 space-y-2">
            <div className="flex gap-2">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-5 w-16 rounded-full" />
              <Skeleton className="h-5 w-20 rounded-full" />
            </div>
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
          <Skeleton className="hidden h-9 w-16 sm:block" />
        </>
      }
    />
  );
}
