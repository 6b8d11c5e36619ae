import { Download } from 'lucide-react';
import { useId } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { type TSupplyOrder } from '#domain/supplies';
import { OPEN_SUPPLY_STATUSES, SUPPLY_STATUS_LABELS } from '#domain/orders';
import { useSuppliesSummary } from '../../api/supplies/supplies-summary.ts';
import { supplyOrdersCsvHref } from '../../api/supplies/supply-orders.ts';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { SupplyOrderList } from './supply-order-list.tsx';

export type TOpenStatus = (typeof OPEN_SUPPLY_STATUSES)[number];

/** What an empty list of one open status says. */
const NONE_OPEN: Record<TOpenStatus, string> = {
  ordered: 'No orders waiting to be started',
  processing: 'No orders being processed',
  ready_for_pickup: 'No orders ready for pickup',
};

/**
 * The Orders tab: the open orders first (oldest first, so what waits longest is on top), with
 * a filter by status and, for those who order, 'My requests'; then the orders picked up or
 * cancelled, newest first. A supplier sees only the orders placed with her (the server scopes
 * the lists), with her next step on each row.
 */
export function OrdersTab({
  user,
  timeZone,
  status,
  mine,
  onStatus,
  onMine,
  onOpen,
  onPickup,
  onCancel,
}: {
  user: TCurrentUser;
  timeZone: string;
  status: TOpenStatus | undefined;
  mine: boolean;
  onStatus: (status: TOpenStatus | undefined) => void;
  onMine: (mine: boolean) => void;
  onOpen: (order: TSupplyOrder) => void;
  onPickup: (order: TSupplyOrder) => void;
  onCancel: (order: TSupplyOrder) => void;
}) {
  const orders = can(user, 'supplies.order');
  const supplier = !orders && can(user, 'supplies.fulfil');
  const summary = useSuppliesSummary();
  // The summary counts the clinic's open orders (or the supplier's own), not one's own requests.
  const counts = !mine && summary.data ? summary.data.openOrders : null;
  const allOpen = counts ? counts.ordered + counts.processing + counts.ready_for_pickup : null;
  const mineId = useId();
  const common = { user, timeZone, onOpen, onPickup, onCancel };
  // A supplier's lists hold only her orders anyway: said once, on the whole of them.
  const whose = mine ? 'among your requests' : supplier && !status ? 'placed with you' : '';

  const choices: { value: TOpenStatus | undefined; label: string; count: number | null }[] = [
    { value: undefined, label: 'All open', count: allOpen },
    ...OPEN_SUPPLY_STATUSES.map((value) => ({ value, label: SUPPLY_STATUS_LABELS[value], count: counts ? counts[value] : null })),
  ];

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <div role="group" aria-label="Show open orders by status" className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <Button
              key={choice.label}
              size="sm"
              variant={status === choice.value ? 'default' : 'outline'}
              aria-pressed={status === choice.value}
              data-testid="status-filter"
              data-status={choice.value ?? 'open'}
              onClick={() => onStatus(choice.value)}
            >
              {choice.label}
              {choice.count !== null && (
                <span
                  className={cn('rounded-full px-1.5 text-xs tabular-nums', status === choice.value ? 'bg-white/20 text-white' : 'bg-slate-100 text-slate-700')}
                >
                  {choice.count}
                </span>
              )}
            </Button>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-4 sm:ml-auto">
          {orders && (
            <label htmlFor={mineId} className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input id={mineId} type="checkbox" className="size-4 accent-blue-700" checked={mine} onChange={(event) => onMine(event.target.checked)} />
              My requests
            </label>
          )}
          <a href={supplyOrdersCsvHref({ view: 'all' })} download className={buttonClass({ variant: 'outline', size: 'sm' })}>
            <Download aria-hidden="true" />
            Export CSV<span className="sr-only"> of the supply orders</span>
          </a>
        </div>
      </div>

      <section aria-labelledby="open-orders-heading">
        <h2 id="open-orders-heading" className="mb-3 text-lg font-semibold text-slate-900">
          {status ? SUPPLY_STATUS_LABELS[status] : 'Open orders'}
        </h2>
        <SupplyOrderList
          {...common}
          filter={{ view: 'open', status, mine }}
          order="oldest first"
          testId="open-orders"
          loadingLabel="Loading the open orders"
          errorTitle="Could not load the open orders"
          empty={
            <>
              <p className="font-medium text-slate-900">
                {status ? NONE_OPEN[status] : 'No open orders'}
                {whose ? ` ${whose}` : ''}
              </p>
              <p>
                {supplier
                  ? 'Orders the clinic places with you show here, oldest first, until they are picked up.'
                  : orders
                    ? "Orders show here until they are picked up. Place one with 'New Order', or from the Suggestions tab."
                    : 'Orders show here until they are picked up.'}
              </p>
            </>
          }
        />
      </section>

      <section aria-labelledby="done-orders-heading">
        <h2 id="done-orders-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Picked up and cancelled
        </h2>
        <SupplyOrderList
          {...common}
          filter={{ view: 'done', mine }}
          order="newest first"
          testId="done-orders"
          loadingLabel="Loading the orders picked up or cancelled"
          errorTitle="Could not load the orders picked up or cancelled"
          empty={
            <p className="font-medium text-slate-900">
              {mine
                ? 'None of your requests was picked up or cancelled yet'
                : supplier
                  ? 'No order placed with you was picked up or cancelled yet'
                  : 'No orders picked up or cancelled yet'}
            </p>
          }
        />
      </section>
    </div>
  );
}
