import { CalendarClock, Truck, User } from 'lucide-react';
import { useId } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { formatCents, type TSupplyOrder } from '#domain/supplies';
import { formatDayTime } from '#domain/clinic-time';
import { SupplyStatusBadge } from '../../components/supplies/supply-status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { SupplyOrderActions } from './supply-order-actions.tsx';

/** The lines of an order in a few words: 'Nitrile gloves, Gauze pads and 3 more'. */
export function linesSummary(order: Pick<TSupplyOrder, 'items'>): string {
  const names = order.items.map((line) => line.name);
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

/**
 * One supply order in a list: its number, status, supplier, requester, when it was ordered
 * (and readied), what it holds and its total; 'View' opens it, and the steps this user may take
 * (Start Processing, Ready for Pickup, Confirm Pickup, Cancel Order) are at hand.
 */
export function SupplyOrderRow({
  order,
  user,
  timeZone,
  onOpen,
  onPickup,
  onCancel,
}: {
  order: TSupplyOrder;
  user: TCurrentUser;
  timeZone: string;
  onOpen: (order: TSupplyOrder) => void;
  onPickup: (order: TSupplyOrder) => void;
  onCancel: (order: TSupplyOrder) => void;
}) {
  const headingId = useId();
  const short = order.items.filter((line) => line.receivedQuantity !== null && line.receivedQuantity < line.quantity).length;
  return (
    <li data-testid="supply-order-row" data-order-id={order.id} data-status={order.status} data-order-number={order.orderNumber}>
      <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border bg-white p-3 sm:p-4 lg:flex-row lg:items-center">
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={headingId} className="font-semibold text-slate-900">
              <span className="font-mono tabular-nums">{order.orderNumber}</span>
            </h3>
            <SupplyStatusBadge status={order.status} />
            <span className="text-sm font-semibold text-slate-900 tabular-nums" data-testid="supply-order-total">
              {formatCents(order.totalAmount)}
            </span>
          </div>
          <p className="text-sm break-words text-slate-800" data-testid="supply-order-lines">
            {order.items.length} {order.items.length === 1 ? 'item' : 'items'}: {linesSummary(order)}
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
            <span className="flex items-center gap-1">
              <CalendarClock className="size-3.5 shrink-0" aria-hidden="true" />
              Ordered {formatDayTime(order.orderedAt, timeZone)}
            </span>
            {order.requestedByName && (
              <span className="flex items-center gap-1" data-testid="supply-order-requester">
                <User className="size-3.5 shrink-0" aria-hidden="true" />
                by {order.requestedByName}
              </span>
            )}
            {order.supplierName && order.supplierId !== user.id && (
              <span className="flex items-center gap-1" data-testid="supply-order-supplier">
                <Truck className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="sr-only">Supplier: </span>
                {order.supplierName}
              </span>
            )}
            {order.status === 'ready_for_pickup' && order.readyAt && (
              <span className="font-medium text-orange-900">Ready since {formatDayTime(order.readyAt, timeZone)}</span>
            )}
            {order.status === 'completed' && order.pickedUpAt && (
              <span>
                Picked up {formatDayTime(order.pickedUpAt, timeZone)}
                {order.pickedUpByName ? ` by ${order.pickedUpByName}` : ''}
                {short > 0 ? `, ${short} ${short === 1 ? 'line' : 'lines'} short` : ''}
              </span>
            )}
          </p>
          {order.status === 'cancelled' && order.statusReason && <p className="text-xs break-words text-slate-600">Cancelled: {order.statusReason}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2 lg:shrink-0">
          <SupplyOrderActions order={order} user={user} compact onPickup={onPickup} onCancel={onCancel} />
          <Button size="sm" variant="outline" onClick={() => onOpen(order)}>
            View
            <span className="sr-only">: order {order.orderNumber}</span>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** Rows standing in while a list loads, with a status line for screen readers. */
export function SupplyRowsSkeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <ListSkeleton
      rows={rows}
      label={label}
      testId="supply-skeleton"
      row={
        <>
          <div className="flex-1 space-y-2">
            <div className="flex gap-2">
              <Skeleton className="h-5 w-36" />
              <Skeleton className="h-5 w-20 rounded-full" />
            </div>
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
          </div>
          <Skeleton className="hidden h-9 w-16 sm:block" />
        </>
      }
    />
  );
}
