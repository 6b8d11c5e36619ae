import { Package } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TSupplyOrder } from '#domain/supplies';
import { useSupplyOrders, type TSupplyOrderFilter } from '../../api/supplies/supply-orders.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { SupplyOrderRow, SupplyRowsSkeleton } from './supply-order-row.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** One list of orders, a page at a time: skeleton rows, an error with a retry, its empty text, 'Load more'. */
export function SupplyOrderList({
  filter,
  user,
  timeZone,
  order,
  empty,
  errorTitle,
  loadingLabel,
  testId,
  onOpen,
  onPickup,
  onCancel,
}: {
  filter: TSupplyOrderFilter;
  user: TCurrentUser;
  timeZone: string;
  /** Said after the count: 'oldest first'. */
  order: string;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
  testId: string;
  onOpen: (order: TSupplyOrder) => void;
  onPickup: (order: TSupplyOrder) => void;
  onCancel: (order: TSupplyOrder) => void;
}) {
  const query = useDeferredQuery(useSupplyOrders(filter));
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;

  if (isPending) return <SupplyRowsSkeleton label={loadingLabel} />;
  // A failed first page; a failed later page keeps what is shown and offers 'Load more' again.
  if (isError && !isFetchNextPageError) return <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;

  const orders = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? null;
  if (orders.length === 0) {
    return (
      <div
        data-testid={`${testId}-empty`}
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-8 text-center text-sm text-slate-600"
      >
        <Package className="size-8 text-slate-400" aria-hidden="true" />
        {empty}
      </div>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-slate-600" data-testid={`${testId}-count`}>
        {total === null || total === orders.length ? `${orders.length} ${orders.length === 1 ? 'order' : 'orders'}` : `${orders.length} of ${total} orders`}
        {`, ${order}`}
      </p>
      <ul className="space-y-3" data-testid={testId}>
        {orders.map((o) => (
          <SupplyOrderRow key={o.id} order={o} user={user} timeZone={timeZone} onOpen={onOpen} onPickup={onPickup} onCancel={onCancel} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more orders." size="sm" className="mt-4" />
    </div>
  );
}
