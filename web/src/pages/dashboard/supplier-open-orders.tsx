import { Package } from 'lucide-react';
import { Link } from 'wouter';
import { supplyOrderHref } from '#domain/supply-links';
import { useSupplyOrders } from '../../api/supplies/supply-orders.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { SupplyStatusBadge } from '../../components/supplies/supply-status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

/** The dashboard's open orders: this many, oldest first; first-reads.ts asks for the same page early. */
export const DASHBOARD_SUPPLY_ORDERS = 5;

/**
 * A supplier's 'Open Orders' panel, in place of Today's Schedule: her oldest open orders, each
 * with its status and what it holds, leading to the order.
 */
export function SupplierOpenOrders() {
  const { timeZone } = useClinicTimeZone();
  const { data, isPending, isError, error, refetch } = useSupplyOrders({ view: 'open', limit: DASHBOARD_SUPPLY_ORDERS });
  const orders = data?.pages[0]?.items ?? [];
  return (
    <Card data-testid="supplier-open-orders" className="flex flex-col">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 p-4 sm:p-5">
        <CardTitle id="open-orders-panel-heading">Open Orders</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link href="/supply-orders">
            <Package aria-hidden="true" />
            View All Orders
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-5 sm:pt-0">
        {isPending ? (
          <div role="status">
            <span className="sr-only">Loading your open orders</span>
            <div className="space-y-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-14 w-full" />
              ))}
            </div>
          </div>
        ) : isError ? (
          <ErrorState title="Could not load your open orders" error={error} onRetry={() => void refetch()} />
        ) : orders.length === 0 ? (
          <div data-testid="open-orders-panel-empty" className="flex flex-col items-center gap-2 py-8 text-center text-sm text-slate-600">
            <Package className="size-6 text-slate-400" aria-hidden="true" />
            No open orders. New orders from the clinic show here.
          </div>
        ) : (
          <ul aria-labelledby="open-orders-panel-heading" className="space-y-3">
            {orders.map((order) => (
              <li key={order.id} data-testid="open-order-entry" className="rounded-lg border p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={supplyOrderHref(order.id)} className="font-mono text-sm font-semibold text-blue-800 hover:underline">
                    {order.orderNumber}
                  </Link>
                  <SupplyStatusBadge status={order.status} />
                </div>
                <p className="mt-1 text-xs text-slate-600">
                  {order.items.length} {order.items.length === 1 ? 'item' : 'items'} · ordered {formatDayTime(order.orderedAt, timeZone)}
                  {order.requestedByName ? ` by ${order.requestedByName}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
