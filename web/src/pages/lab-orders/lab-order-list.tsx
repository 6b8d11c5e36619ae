import { FlaskConical } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TLabOrder } from '#domain/labs';
import { useLabOrders, type TLabOrderFilter } from '../../api/labs/lab-orders.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { useNow } from '../../lib/use-now.ts';
import { LabOrderRow, LabOrderRowsSkeleton } from './lab-order-row.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

interface TLabOrderListProps {
  /** The tab's name, as a heading for screen readers (the rows' headings sit under it). */
  heading: string;
  /** A line under the heading saying the list's order. */
  order: string;
  filter: TLabOrderFilter;
  timeZone: string;
  today: string;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
  onOpen: (order: TLabOrder) => void;
}

/** One tab's orders, a page at a time: skeleton rows, an error with a retry, the tab's empty text, 'Load more'. */
export function LabOrderList({ heading, ...list }: TLabOrderListProps) {
  return (
    <section aria-label={heading}>
      <h2 className="sr-only">{heading}</h2>
      <LabOrderListBody {...list} />
    </section>
  );
}

function LabOrderListBody({ filter, order, timeZone, today, empty, errorTitle, loadingLabel, onOpen }: Omit<TLabOrderListProps, 'heading'>) {
  const query = useDeferredQuery(useLabOrders(filter));
  const now = useNow();
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;

  if (isPending) return <LabOrderRowsSkeleton label={loadingLabel} />;
  // A failed first page; a failed later page keeps what is shown and offers 'Load more' again.
  if (isError && !isFetchNextPageError) return <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;

  const orders = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? null;
  if (orders.length === 0) {
    return (
      <div
        data-testid="lab-orders-empty"
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-10 text-center text-sm text-slate-600"
      >
        <FlaskConical className="size-8 text-slate-400" aria-hidden="true" />
        {empty}
      </div>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-slate-600" data-testid="lab-orders-count">
        {total === null || total === orders.length ? `${orders.length} ${orders.length === 1 ? 'order' : 'orders'}` : `${orders.length} of ${total} orders`}
        {`, ${order}`}
      </p>
      <ul className="space-y-3" data-testid="lab-order-list">
        {orders.map((o) => (
          <LabOrderRow key={o.id} order={o} timeZone={timeZone} today={today} now={now} onOpen={onOpen} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more lab orders." size="sm" className="mt-4" />
    </div>
  );
}
