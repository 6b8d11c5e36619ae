import { formatCount } from '#domain/report-format';
import { Check, Circle } from 'lucide-react';
import { useId } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { formatCents, type TSupplyOrder } from '#domain/supplies';
import { useSupplyOrder } from '../../api/supplies/supply-order.ts';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { SupplyStatusBadge } from '../../components/supplies/supply-status-badge.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { SupplyOrderActions } from './supply-order-actions.tsx';

/**
 * One supply order (issue 31): its lines with their unit prices, line totals and what came of
 * each at pickup, the total the server computed, when it was ordered, started, readied and picked
 * up (and by whom), its notes, and the buttons this user may press.
 */
export function SupplyOrderDetailDialog({
  orderId,
  user,
  timeZone,
  onClose,
  onPickup,
  onCancel,
}: {
  orderId: string;
  user: TCurrentUser;
  timeZone: string;
  onClose: () => void;
  onPickup: (order: TSupplyOrder) => void;
  onCancel: (order: TSupplyOrder) => void;
}) {
  const { data: order, isPending, isError, error, refetch } = useSupplyOrder(orderId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" data-testid="supply-order-detail">
        <DialogHeader className="pr-6">
          <DialogTitle>{order ? `Supply order ${order.orderNumber}` : 'Supply order'}</DialogTitle>
          <DialogDescription>
            {order
              ? `${order.supplierName ? `From ${order.supplierName}` : 'Supply order'}${order.requestedByName ? `, requested by ${order.requestedByName}` : ''}`
              : isPending
                ? 'Loading the order…'
                : 'The order could not be read.'}
          </DialogDescription>
        </DialogHeader>
        {isPending ? (
          <div>
            <p role="status" className="sr-only">
              Loading the order
            </p>
            <div className="space-y-3" aria-hidden="true">
              <Skeleton className="h-5 w-1/3" />
              <Skeleton className="h-24 w-full" />
              <Skeleton className="h-32 w-full" />
            </div>
          </div>
        ) : isError ? (
          <ErrorState title="Could not load this supply order" error={error} onRetry={() => void refetch()} />
        ) : (
          <div className="min-w-0 space-y-5">
            <div className="flex flex-wrap items-center gap-2">
              <SupplyStatusBadge status={order.status} />
              <span className="text-sm text-slate-700">
                Total <span className="font-semibold text-slate-900 tabular-nums">{formatCents(order.totalAmount)}</span>
              </span>
            </div>
            <OrderLines order={order} />
            <Timeline order={order} timeZone={timeZone} />
            {order.notes && (
              <section aria-labelledby="supply-notes-heading">
                <h3 id="supply-notes-heading" className="mb-1 text-sm font-semibold text-slate-900">
                  Notes
                </h3>
                <p data-testid="supply-order-notes" className="rounded-md border bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap text-slate-800">
                  {order.notes}
                </p>
              </section>
            )}
            <SupplyOrderActions order={order} user={user} onPickup={onPickup} onCancel={onCancel} className="border-t pt-4" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The lines: quantity, unit price and line total (the unit price folds under the name on a phone), the total, and what came. */
function OrderLines({ order }: { order: TSupplyOrder }) {
  const captionId = useId();
  const received = order.items.some((line) => line.receivedQuantity !== null);
  return (
    <section aria-labelledby={captionId}>
      <h3 id={captionId} className="mb-1 text-sm font-semibold text-slate-900">
        Items
      </h3>
      <table className="w-full border-collapse text-sm" data-testid="supply-order-items">
        <thead>
          <tr className="border-b text-left text-xs text-slate-600">
            <th scope="col" className="py-2 pr-2 font-medium">
              Item
            </th>
            <th scope="col" className="py-2 pr-2 text-right font-medium">
              Qty
            </th>
            <th scope="col" className="hidden py-2 pr-2 text-right font-medium sm:table-cell">
              Unit price
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((line) => {
            const short = line.receivedQuantity !== null && line.receivedQuantity < line.quantity;
            return (
              <tr key={line.itemId} data-testid="supply-order-item" data-item-id={line.itemId} className={cn('border-b align-top', short && 'bg-amber-50')}>
                <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-900">
                  <span className="break-words">{line.name}</span>
                  <span className="block text-xs font-normal text-slate-600">
                    per {line.unit}
                    <span className="sm:hidden"> · {formatCents(line.unitPriceCents)} each</span>
                  </span>
                  {received && line.receivedQuantity !== null && (
                    <span className={cn('block text-xs font-normal', short ? 'font-semibold text-amber-900' : 'text-slate-600')} data-testid="received">
                      {short
                        ? `Received ${formatCount(line.receivedQuantity)} of ${formatCount(line.quantity)}: ${formatCount(line.quantity - line.receivedQuantity)} short`
                        : 'Received in full'}
                    </span>
                  )}
                </th>
                <td className="py-2 pr-2 text-right tabular-nums">{formatCount(line.quantity)}</td>
                <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell">{formatCents(line.unitPriceCents)}</td>
                <td className="py-2 text-right tabular-nums">{formatCents(line.lineTotalCents)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2} className="py-2 pr-2 text-left font-semibold text-slate-900 sm:hidden">
              Total
            </th>
            <th scope="row" colSpan={3} className="hidden py-2 pr-2 text-left font-semibold text-slate-900 sm:table-cell">
              Total
            </th>
            <td className="py-2 text-right font-semibold text-slate-900 tabular-nums" data-testid="supply-order-detail-total">
              {formatCents(order.totalAmount)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

/** What happened to the order, step by step: the steps still to come are listed too, as not yet. */
function Timeline({ order, timeZone }: { order: TSupplyOrder; timeZone: string }) {
  const when = (at: string | null) => (at ? formatDayTime(at, timeZone) : null);
  const steps: { key: string; label: string; at: string | null; detail?: string | null }[] = [
    { key: 'ordered', label: 'Ordered', at: when(order.orderedAt), detail: order.requestedByName ? `by ${order.requestedByName}` : null },
  ];
  if (order.status === 'cancelled') {
    steps.push({ key: 'cancelled', label: 'Cancelled', at: when(order.updatedAt), detail: order.statusReason });
  } else {
    steps.push(
      { key: 'processing', label: 'Processing started', at: when(order.processingAt) },
      { key: 'ready', label: 'Ready for pickup', at: when(order.readyAt) },
      { key: 'picked', label: 'Picked up', at: when(order.pickedUpAt), detail: order.pickedUpByName ? `by ${order.pickedUpByName}` : null },
    );
  }
  return (
    <section aria-labelledby="supply-timeline-heading">
      <h3 id="supply-timeline-heading" className="mb-2 text-sm font-semibold text-slate-900">
        Timeline
      </h3>
      <ol className="space-y-2" data-testid="supply-order-timeline">
        {steps.map((step) => (
          <li key={step.key} data-testid="timeline-step" data-step={step.key} data-done={step.at !== null} className="flex items-start gap-2 text-sm">
            {step.at ? (
              <Check className={cn('mt-0.5 size-4 shrink-0', step.key === 'cancelled' ? 'text-slate-600' : 'text-green-700')} aria-hidden="true" />
            ) : (
              <Circle className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
            )}
            <span className={cn('min-w-0 break-words', step.at ? 'text-slate-900' : 'text-slate-600')}>
              <span className="font-medium">{step.label}</span>
              {step.at ? (
                <>
                  {' '}
                  {step.at}
                  {step.detail && (step.key === 'cancelled' ? `: ${step.detail}` : ` ${step.detail}`)}
                </>
              ) : (
                <span>: not yet</span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
