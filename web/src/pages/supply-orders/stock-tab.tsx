import { Download, Plus, Search } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { SUPPLY_EXPIRY_WINDOWS, type TSupplyItem } from '#domain/supplies';
import { supplyItemsCsvHref } from '../../api/supplies/supply-items.ts';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { cn } from '../../lib/utils.ts';
import type { TStockAction } from './stock-item-row.tsx';
import { StockItemList } from './stock-item-list.tsx';

// The forms and the history load the first time one is opened: most visits only read the lists.
const RecordUseDialog = lazy(async () => ({ default: (await import('./record-use-dialog.tsx')).RecordUseDialog }));
const CountDialog = lazy(async () => ({ default: (await import('./count-dialog.tsx')).CountDialog }));
const SupplyItemDialog = lazy(async () => ({ default: (await import('./supply-item-dialog.tsx')).SupplyItemDialog }));
const MovementsDialog = lazy(async () => ({ default: (await import('./movements-dialog.tsx')).MovementsDialog }));

type TOpen = { kind: Exclude<TStockAction, 'order'>; item: TSupplyItem } | { kind: 'new' } | null;
type TWindow = (typeof SUPPLY_EXPIRY_WINDOWS)[number];

/** A download link of the list as CSV, styled as a small button. */
function CsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a href={href} download className={buttonClass({ variant: 'outline', size: 'sm' })}>
      <Download aria-hidden="true" />
      Export CSV<span className="sr-only"> of {what}</span>
    </a>
  );
}

/**
 * The Stock tab (supplies.stock): what is at or below its reorder point first (furthest below
 * first), then what expires within 30, 60 or 90 days (soonest first, expired included), then
 * the whole catalogue, searched by name. Anyone who keeps stock records what was used; an
 * administrator counts, edits and adds items. Each list exports as CSV.
 */
export function StockTab({ user, today, timeZone, onOrder }: { user: TCurrentUser; today: string; timeZone: string; onOrder: (item: TSupplyItem) => void }) {
  const manages = can(user, 'supplies.manage');
  const actions: TStockAction[] = [
    'use',
    ...(can(user, 'supplies.order') ? (['order'] as const) : []),
    ...(manages ? (['count', 'edit'] as const) : []),
    'history',
  ];
  const [open, setOpen] = useState<TOpen>(null);
  const [within, setWithin] = useState<TWindow>(30);
  const [text, setText] = useState('');
  const [retired, setRetired] = useState(false);
  const q = useDebouncedValue(text.trim(), 300);
  const ids = { within: useId(), retired: useId() };
  const close = () => setOpen(null);
  const onAction = (action: TStockAction, item: TSupplyItem) => (action === 'order' ? onOrder(item) : setOpen({ kind: action, item }));
  const common = { today, actions, onAction };

  return (
    <div className="space-y-8">
      <section aria-labelledby="low-stock-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="low-stock-heading" className="text-lg font-semibold text-slate-900">
            Low stock
          </h2>
          <CsvLink href={supplyItemsCsvHref({ view: 'low' })} what="the items low in stock" />
        </div>
        <StockItemList
          {...common}
          filter={{ view: 'low' }}
          order="furthest below its reorder point first"
          testId="low-stock"
          loadingLabel="Loading the items low in stock"
          errorTitle="Could not load the items low in stock"
          empty={<p className="font-medium text-slate-900">Nothing is at or below its reorder point</p>}
        />
      </section>

      <section aria-labelledby="expiring-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="expiring-heading" className="text-lg font-semibold text-slate-900">
            Expiring
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={ids.within} className="text-sm font-medium text-slate-800">
              Within
            </label>
            <select
              id={ids.within}
              className={cn(SELECT_CLASS, 'h-9 w-auto')}
              value={within}
              onChange={(event) => setWithin(Number(event.target.value) as TWindow)}
            >
              {SUPPLY_EXPIRY_WINDOWS.map((days) => (
                <option key={days} value={days}>
                  {days} days
                </option>
              ))}
            </select>
            <CsvLink href={supplyItemsCsvHref({ view: 'expiring', within })} what={`the items expiring within ${within} days`} />
          </div>
        </div>
        <StockItemList
          {...common}
          filter={{ view: 'expiring', within }}
          order="soonest first, expired included"
          testId="expiring"
          loadingLabel="Loading the items expiring soon"
          errorTitle="Could not load the items expiring soon"
          empty={<p className="font-medium text-slate-900">Nothing expires within {within} days</p>}
        />
      </section>

      <section aria-labelledby="all-items-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="all-items-heading" className="text-lg font-semibold text-slate-900">
            All items
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            <CsvLink href={supplyItemsCsvHref({ view: 'all' })} what="every item" />
            {manages && (
              <Button size="sm" onClick={() => setOpen({ kind: 'new' })}>
                <Plus aria-hidden="true" />
                New Item
              </Button>
            )}
          </div>
        </div>
        <div className="mb-3 flex flex-col gap-3 sm:flex-row sm:items-center">
          <div role="search" className="relative max-w-xl flex-1">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search the stock"
              placeholder="Search items by name…"
              maxLength={100}
              value={text}
              onChange={(event) => setText(event.target.value)}
              className="pl-9"
            />
          </div>
          {manages && (
            <label htmlFor={ids.retired} className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input
                id={ids.retired}
                type="checkbox"
                className="size-4 accent-blue-700"
                checked={retired}
                onChange={(event) => setRetired(event.target.checked)}
              />
              Show retired items
            </label>
          )}
        </div>
        <StockItemList
          {...common}
          filter={{ view: 'all', q, all: retired }}
          order="by name"
          testId="all-items"
          loadingLabel="Loading the stock"
          errorTitle="Could not load the stock"
          empty={
            q ? (
              <p className="font-medium text-slate-900">No item matches “{q}”</p>
            ) : (
              <>
                <p className="font-medium text-slate-900">The catalogue is empty</p>
                <p>{manages ? "Add the items the clinic stocks with 'New Item'." : 'An administrator adds the items the clinic stocks.'}</p>
              </>
            )
          }
        />
      </section>

      <Suspense fallback={null}>
        {open?.kind === 'use' && <RecordUseDialog item={open.item} onClose={close} />}
        {open?.kind === 'count' && <CountDialog item={open.item} onClose={close} />}
        {(open?.kind === 'edit' || open?.kind === 'new') && <SupplyItemDialog item={open.kind === 'edit' ? open.item : null} onClose={close} />}
        {open?.kind === 'history' && <MovementsDialog item={open.item} timeZone={timeZone} onClose={close} />}
      </Suspense>
    </div>
  );
}
