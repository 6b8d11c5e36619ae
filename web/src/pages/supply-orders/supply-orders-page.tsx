import * as Tabs from '@radix-ui/react-tabs';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can, type TCapability } from '#domain/permissions';
import { type TSupplyItem, type TSupplyOrder } from '#domain/supplies';
import { OPEN_SUPPLY_STATUSES } from '#domain/orders';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { useSuppliesSummary } from '../../api/supplies/supplies-summary.ts';
import { clinicToday } from '#domain/clinic-time';
import { Button } from '../../components/ui/button.tsx';
import { NewSupplyOrderDialog } from './new-supply-order-dialog.tsx';
import { OrdersTab, type TOpenStatus } from './orders-tab.tsx';
import { StockTab } from './stock-tab.tsx';
import { SuggestionsTab } from './suggestions-tab.tsx';
import { SupplyRowsSkeleton } from './supply-order-row.tsx';
import { SupplyOrdersHeader } from './supply-orders-header.tsx';

// An order's detail and its dialogs load the first time someone opens one.
const SupplyOrderDetailDialog = lazy(async () => ({ default: (await import('./supply-order-detail-dialog.tsx')).SupplyOrderDetailDialog }));
const CancelSupplyOrderDialog = lazy(async () => ({ default: (await import('./cancel-supply-order-dialog.tsx')).CancelSupplyOrderDialog }));
const PickupDialog = lazy(async () => ({ default: (await import('./pickup-dialog.tsx')).PickupDialog }));

type TTab = 'orders' | 'stock' | 'suggestions';
const TABS: readonly { value: TTab; label: string; capability?: TCapability }[] = [
  { value: 'orders', label: 'Orders' },
  { value: 'stock', label: 'Stock', capability: 'supplies.stock' },
  { value: 'suggestions', label: 'Suggestions', capability: 'supplies.order' },
];

const TRIGGER =
  'inline-flex flex-1 items-center justify-center gap-1.5 whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none sm:px-4';

const isOpenStatus = (value: string | null): value is TOpenStatus => (OPEN_SUPPLY_STATUSES as readonly string[]).includes(value ?? '');

interface TPlace {
  tab: TTab;
  status?: TOpenStatus | undefined;
  mine?: boolean | undefined;
  order?: string | undefined;
}

/** The address of the screen with a tab, the Orders tab's filters and an open order; the defaults are left out. */
export function supplyOrdersHref({ tab, status, mine, order }: TPlace): string {
  const params = new URLSearchParams();
  if (tab !== 'orders') params.set('tab', tab);
  if (status) params.set('status', status);
  if (mine) params.set('mine', '1');
  if (order) params.set('order', order);
  const search = params.toString();
  return search ? `/supply-orders?${search}` : '/supply-orders';
}

/** The dialog opened over the screen: a move that needs more than a click. */
type TPanel = { kind: 'cancel' | 'pickup'; order: TSupplyOrder } | null;

/**
 * /supply-orders (issue 31): Orders, Stock and Suggestions, each for those whose work it is
 * (a supplier sees only the Orders tab, with her own orders), kept in the address (?tab=, with
 * the Orders tab's ?status= and ?mine=1); an open order in ?order= (a supply notice links
 * there). Changes made by others arrive live (supply_changed) and the lists are read again
 * (live/live-notifications.ts), so a supplier sees a new order and a nurse its readiness
 * without a reload.
 */
export function SupplyOrdersPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const tabs = TABS.filter((t) => !t.capability || can(user, t.capability));
  const requested = params.get('tab');
  const tab = tabs.find((t) => t.value === requested)?.value ?? 'orders';
  const requestedStatus = params.get('status');
  const status = isOpenStatus(requestedStatus) ? requestedStatus : undefined;
  const mine = params.get('mine') === '1' && can(user, 'supplies.order');
  const openOrderId = params.get('order') || undefined;
  const clinic = useClinicTimeZone();
  const orders = can(user, 'supplies.order');
  const summary = useSuppliesSummary({ enabled: orders });
  const [creating, setCreating] = useState<{ item?: TSupplyItem } | null>(null);
  const [panel, setPanel] = useState<TPanel>(null);

  const place: TPlace = { tab, status, mine };
  const go = (changes: Partial<TPlace>, replace = true) => navigate(supplyOrdersHref({ ...place, ...changes }), { replace });
  const openOrder = (order: Pick<TSupplyOrder, 'id'>) => go({ order: order.id }, false);
  const closeOrder = () => go({ order: undefined });
  const today = clinic.pending ? null : clinicToday(clinic.timeZone);
  const supplier = !orders && can(user, 'supplies.fulfil');
  const suggestions = summary.data?.openSuggestions ?? null;
  const ordersTab = (
    <OrdersTab
      user={user}
      timeZone={clinic.timeZone}
      status={status}
      mine={mine}
      onStatus={(next) => go({ status: next })}
      onMine={(next) => go({ mine: next })}
      onOpen={openOrder}
      onPickup={(order) => setPanel({ kind: 'pickup', order })}
      onCancel={(order) => setPanel({ kind: 'cancel', order })}
    />
  );

  return (
    <div className="mx-auto max-w-6xl">
      <SupplyOrdersHeader
        subtitle={supplier ? 'The orders the clinic placed with you: start processing, then mark them ready for pickup' : undefined}
        actions={
          orders && (
            <Button onClick={() => setCreating({})}>
              <Plus aria-hidden="true" />
              New Order
            </Button>
          )
        }
      />

      {today === null ? (
        <SupplyRowsSkeleton label="Loading supply orders" />
      ) : tabs.length === 1 ? (
        // A supplier's one view: her orders, with no tab list around them.
        ordersTab
      ) : (
        <Tabs.Root value={tab} onValueChange={(value) => go({ tab: value as TTab, status: undefined, mine: undefined })}>
          <Tabs.List aria-label="Supply views" className="mb-6 flex w-full rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto">
            {tabs.map(({ value, label }) => (
              <Tabs.Trigger key={value} value={value} className={TRIGGER}>
                {label}
                {value === 'suggestions' && suggestions !== null && suggestions > 0 && (
                  <span className="rounded-full bg-orange-100 px-1.5 text-xs font-semibold text-orange-900 tabular-nums" data-testid="suggestions-count">
                    {suggestions}
                    <span className="sr-only"> open</span>
                  </span>
                )}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="orders" className="focus-visible:outline-none">
            {ordersTab}
          </Tabs.Content>
          {tabs.some((t) => t.value === 'stock') && (
            <Tabs.Content value="stock" className="focus-visible:outline-none">
              <StockTab user={user} today={today} timeZone={clinic.timeZone} onOrder={(item) => setCreating({ item })} />
            </Tabs.Content>
          )}
          {tabs.some((t) => t.value === 'suggestions') && (
            <Tabs.Content value="suggestions" className="focus-visible:outline-none">
              <SuggestionsTab onOrdered={(order) => navigate(supplyOrdersHref({ tab: 'orders', order: order.id }))} />
            </Tabs.Content>
          )}
        </Tabs.Root>
      )}

      {orders && (
        <NewSupplyOrderDialog
          open={creating !== null}
          presetItem={creating?.item}
          onClose={() => setCreating(null)}
          onCreated={(order) => {
            setCreating(null);
            navigate(supplyOrdersHref({ tab: 'orders', order: order.id }));
          }}
        />
      )}
      {openOrderId && panel === null && (
        <Suspense fallback={null}>
          <SupplyOrderDetailDialog
            orderId={openOrderId}
            user={user}
            timeZone={clinic.timeZone}
            onClose={closeOrder}
            onPickup={(order) => setPanel({ kind: 'pickup', order })}
            onCancel={(order) => setPanel({ kind: 'cancel', order })}
          />
        </Suspense>
      )}
      {panel?.kind === 'cancel' && (
        <Suspense fallback={null}>
          <CancelSupplyOrderDialog order={panel.order} onClose={() => setPanel(null)} />
        </Suspense>
      )}
      {panel?.kind === 'pickup' && (
        <Suspense fallback={null}>
          <PickupDialog order={panel.order} onClose={() => setPanel(null)} />
        </Suspense>
      )}
    </div>
  );
}
