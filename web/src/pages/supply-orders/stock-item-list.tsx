import { Boxes } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TSupplyItem } from '#domain/supplies';
import { useSupplyItems, type TSupplyItemFilter } from '../../api/supplies/supply-items.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { StockItemRow, type TStockAction } from './stock-item-row.tsx';
import { SupplyRowsSkeleton } from './supply-order-row.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** One list of the catalogue, a page at a time: skeleton rows, an error with a retry, its empty text, 'Load more'. */
export function StockItemList({
  filter,
  today,
  actions,
  order,
  empty,
  errorTitle,
  loadingLabel,
  testId,
  onAction,
}: {
  filter: TSupplyItemFilter;
  today: string;
  actions: readonly TStockAction[];
  /** Said after the count: 'furthest below first'. */
  order: string;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
  testId: string;
  onAction: (action: TStockAction, item: TSupplyItem) => void;
}) {
  const query = useDeferredQuery(useSupplyItems(filter));
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;

  if (isPending) return <SupplyRowsSkeleton rows={2} label={loadingLabel} />;
  if (isError && !isFetchNextPageError) return <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;

  const items = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? null;
  if (items.length === 0) {
    return (
      <div
        data-testid={`${testId}-empty`}
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-6 text-center text-sm text-slate-600"
      >
        <Boxes className="size-7 text-slate-400" aria-hidden="true" />
        {empty}
      </div>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-slate-600" data-testid={`${testId}-count`}>
        {total === null || total === items.length ? `${items.length} ${items.length === 1 ? 'item' : 'items'}` : `${items.length} of ${total} items`}
        {`, ${order}`}
      </p>
      <ul className="space-y-3" data-testid={testId}>
        {items.map((item) => (
          <StockItemRow key={item.id} item={item} today={today} actions={actions} onAction={onAction} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more items." size="sm" className="mt-4" />
    </div>
  );
}
