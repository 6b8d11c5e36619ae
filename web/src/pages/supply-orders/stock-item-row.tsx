import { formatCount } from '#domain/report-format';
import { ClipboardList, History, Minus, Pencil, ShoppingCart } from 'lucide-react';
import { useId } from 'react';
import { formatCents, type TSupplyItem } from '#domain/supplies';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { expiryText, expiryTone, packText, units } from './supply-format.ts';

export type TStockAction = 'use' | 'count' | 'edit' | 'history' | 'order';

const EXPIRY_STYLES = { expired: 'font-semibold text-red-800', soon: 'font-semibold text-amber-900', later: 'text-slate-900' } as const;

/**
 * One item of the catalogue with its stock: on hand (red at or below the reorder point), on
 * order, the reorder point and par level, lot, expiry (red once past, amber within 30 days, said
 * in words too), and what this user may do with it.
 */
export function StockItemRow({
  item,
  today,
  actions,
  onAction,
}: {
  item: TSupplyItem;
  today: string;
  /** The actions this user may take. */
  actions: readonly TStockAction[];
  onAction: (action: TStockAction, item: TSupplyItem) => void;
}) {
  const headingId = useId();
  const tone = item.expiresOn ? expiryTone(item.expiresOn, today) : null;
  const has = (action: TStockAction) => actions.includes(action) && (action !== 'use' || item.onHand > 0);
  const facts: { label: string; value: string; className?: string | undefined; testId?: string }[] = [
    {
      label: 'On hand',
      value: units(item.onHand, item.unit),
      className: item.isLow ? 'font-bold text-red-800' : 'font-bold text-slate-900',
      testId: 'on-hand',
    },
    { label: 'On order', value: formatCount(item.onOrder), testId: 'on-order' },
    { label: 'Reorder at / par', value: `${formatCount(item.reorderPoint)} / ${formatCount(item.parLevel)}` },
    { label: 'Lot', value: item.lot ?? '—' },
    { label: 'Expires', value: item.expiresOn ? expiryText(item.expiresOn, today) : '—', className: tone ? EXPIRY_STYLES[tone] : undefined, testId: 'expires' },
  ];
  return (
    <li data-testid="stock-item" data-item-id={item.id} data-low={item.isLow} data-expiry={tone ?? ''}>
      <article aria-labelledby={headingId} className={cn('space-y-3 rounded-lg border bg-white p-3 sm:p-4', item.isLow && 'border-red-200')}>
        <div className="flex flex-col gap-3 lg:flex-row lg:items-start">
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <h3 id={headingId} className="font-semibold break-words text-slate-900">
                {item.name}
              </h3>
              {item.isLow && <Badge className="border-transparent bg-red-700 text-white">Low stock</Badge>}
              {tone === 'expired' && <Badge className="border-transparent bg-red-100 text-red-800">Expired</Badge>}
              {tone === 'soon' && <Badge className="border-amber-400 bg-amber-100 text-amber-950">Expires soon</Badge>}
              {!item.isActive && <Badge className="border-slate-300 bg-slate-100 text-slate-700">Retired</Badge>}
            </div>
            <p className="text-xs text-slate-600">
              {formatCents(item.unitPriceCents)} per {item.unit}, {packText(item)}
              {item.preferredSupplierName ? ` · from ${item.preferredSupplierName}` : ' · no preferred supplier'}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2 lg:shrink-0 lg:justify-end">
            {has('use') && (
              <Button size="sm" variant="outline" onClick={() => onAction('use', item)}>
                <Minus aria-hidden="true" />
                Record use<span className="sr-only"> of {item.name}</span>
              </Button>
            )}
            {has('order') && (
              <Button size="sm" variant="outline" onClick={() => onAction('order', item)}>
                <ShoppingCart aria-hidden="true" />
                Order<span className="sr-only"> {item.name}</span>
              </Button>
            )}
            {has('count') && (
              <Button size="sm" variant="outline" onClick={() => onAction('count', item)}>
                <ClipboardList aria-hidden="true" />
                Count<span className="sr-only"> {item.name}</span>
              </Button>
            )}
            {has('edit') && (
              <Button size="sm" variant="ghost" onClick={() => onAction('edit', item)}>
                <Pencil aria-hidden="true" />
                Edit<span className="sr-only"> {item.name}</span>
              </Button>
            )}
            {has('history') && (
              <Button size="sm" variant="ghost" onClick={() => onAction('history', item)}>
                <History aria-hidden="true" />
                History<span className="sr-only"> of {item.name}</span>
              </Button>
            )}
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 border-t pt-3 text-sm sm:grid-cols-5">
          {facts.map((fact) => (
            <div key={fact.label} className="min-w-0">
              <dt className="text-xs text-slate-600">{fact.label}</dt>
              <dd className={cn('break-words', fact.className ?? 'text-slate-900')} data-testid={fact.testId}>
                {fact.value}
              </dd>
            </div>
          ))}
        </dl>
      </article>
    </li>
  );
}
