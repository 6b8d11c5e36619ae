import { formatCount } from '#domain/report-format';
import { ListChecks, ShoppingCart, X } from 'lucide-react';
import { useId, useState } from 'react';
import { formatCents, type TSupplyOrder, type TSupplySuggestion } from '#domain/supplies';
import { useDismissSupplySuggestion } from '../../api/supplies/dismiss-supply-suggestion.ts';
import { useOrderSupplySuggestions } from '../../api/supplies/order-supply-suggestions.ts';
import { useSuppliers } from '../../api/supplies/suppliers.ts';
import { useSupplySuggestions } from '../../api/supplies/supply-suggestions.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { units } from './supply-format.ts';

interface TGroup {
  /** null: items with no preferred supplier, for which the user chooses one. */
  supplierId: string | null;
  supplierName: string;
  lines: TSupplySuggestion[];
}

/** The suggestions by supplier, in the server's order (supplier name, then item); those without one last. */
function groupsOf(suggestions: readonly TSupplySuggestion[]): TGroup[] {
  const groups = new Map<string | null, TGroup>();
  for (const s of suggestions) {
    const group = groups.get(s.supplierId) ?? { supplierId: s.supplierId, supplierName: s.supplierName ?? 'No preferred supplier', lines: [] };
    group.lines.push(s);
    groups.set(s.supplierId, group);
  }
  return [...groups.values()].sort((a, b) => Number(a.supplierId === null) - Number(b.supplierId === null));
}

/**
 * The Suggestions tab (supplies.order): what the daily reorder check drafted for each item whose
 * stock on hand and on order is at or below its reorder point (up to par, in whole packs),
 * grouped by supplier. A group becomes one order in one click; a line can be dismissed. Nothing
 * is ever ordered without someone pressing the button.
 */
export function SuggestionsTab({ onOrdered }: { onOrdered: (order: TSupplyOrder) => void }) {
  const { data, isPending, isError, error, refetch } = useSupplySuggestions();
  if (isPending) {
    return (
      <div>
        <p role="status" className="sr-only">
          Loading the reorder suggestions
        </p>
        <div className="space-y-4" aria-hidden="true">
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-40 w-full" />
          ))}
        </div>
      </div>
    );
  }
  if (isError) return <ErrorState title="Could not load the reorder suggestions" error={error} onRetry={() => void refetch()} />;
  if (data.length === 0) {
    return (
      <div
        data-testid="suggestions-empty"
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-10 text-center text-sm text-slate-600"
      >
        <ListChecks className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">No reorder suggestions</p>
        <p>The daily check suggests an order for each item whose stock, counting what is on order, is at or below its reorder point.</p>
      </div>
    );
  }
  return (
    <div className="space-y-4" data-testid="suggestion-groups">
      <p className="text-sm text-slate-600">
        {data.length} {data.length === 1 ? 'suggestion' : 'suggestions'}, by supplier. Each suggests ordering up to the item's par level, in whole packs.
      </p>
      {groupsOf(data).map((group) => (
        <SuggestionGroup key={group.supplierId ?? 'none'} group={group} onOrdered={onOrdered} />
      ))}
    </div>
  );
}

function SuggestionGroup({ group, onOrdered }: { group: TGroup; onOrdered: (order: TSupplyOrder) => void }) {
  const order = useOrderSupplySuggestions();
  const headingId = useId();
  const pickId = useId();
  const needsSupplier = group.supplierId === null;
  const suppliers = useSuppliers();
  const [chosen, setChosen] = useState('');
  const [pickError, setPickError] = useState<string | null>(null);
  const total = group.lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const supplierId = group.supplierId ?? chosen;

  const create = () => {
    if (!supplierId) {
      setPickError('Choose a supplier');
      return;
    }
    order.mutate(
      { supplierId, suggestionIds: group.lines.map((line) => line.id) },
      {
        onSuccess: (placed) => {
          toast({
            title: `Order ${placed.orderNumber} placed`,
            description: `${formatCents(placed.totalAmount)}${placed.supplierName ? ` with ${placed.supplierName}` : ''}`,
            variant: 'success',
          });
          onOrdered(placed);
        },
        onError: (error) => void reportMutationError(error, 'Failed to order the suggestions', { withReason: true }),
      },
    );
  };

  return (
    <Card data-testid="suggestion-group" data-supplier-id={group.supplierId ?? ''}>
      <section aria-labelledby={headingId}>
        <CardHeader className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
          <div className="min-w-0">
            <CardTitle id={headingId} className="text-base break-words">
              {group.supplierName}
            </CardTitle>
            <p className="text-sm text-slate-600">
              {group.lines.length} {group.lines.length === 1 ? 'item' : 'items'} ·{' '}
              <span className="font-semibold text-slate-900 tabular-nums" data-testid="suggestion-group-total">
                {formatCents(total)}
              </span>
            </p>
          </div>
          <div className="flex flex-col gap-2 sm:items-end">
            {needsSupplier && (
              <div className="space-y-1">
                <label htmlFor={pickId} className="text-sm font-medium text-slate-800">
                  Order from
                </label>
                <select
                  id={pickId}
                  className={SELECT_CLASS}
                  value={chosen}
                  aria-invalid={pickError ? true : undefined}
                  aria-describedby={pickError ? `${pickId}-error` : undefined}
                  aria-busy={suppliers.isPending || undefined}
                  onChange={(event) => {
                    setChosen(event.target.value);
                    setPickError(null);
                  }}
                >
                  <option value="">{suppliers.isPending ? 'Loading the suppliers…' : 'Select a supplier'}</option>
                  {suppliers.data?.map((supplier) => (
                    <option key={supplier.id} value={supplier.id}>
                      {supplier.name}
                    </option>
                  ))}
                </select>
                {pickError && (
                  <p id={`${pickId}-error`} className="text-sm text-red-700" data-testid="supplierId-error">
                    {pickError}
                  </p>
                )}
              </div>
            )}
            <Button onClick={create} disabled={order.isPending}>
              {order.isPending ? <Spinner className="size-4 text-white" /> : <ShoppingCart aria-hidden="true" />}
              Create order<span className="sr-only"> from {group.supplierName}</span>
            </Button>
          </div>
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-5 sm:pt-0">
          <ul className="divide-y rounded-md border">
            {group.lines.map((line) => (
              <SuggestionLine key={line.id} line={line} disabled={order.isPending} />
            ))}
          </ul>
        </CardContent>
      </section>
    </Card>
  );
}

/** One suggestion: the item, its stock against its levels, the quantity and line total suggested, and Dismiss. */
function SuggestionLine({ line, disabled }: { line: TSupplySuggestion; disabled: boolean }) {
  const dismiss = useDismissSupplySuggestion();
  const facts: [string, string][] = [
    ['On hand', units(line.onHand, line.unit)],
    ['On order', formatCount(line.onOrder)],
    ['Reorder at', formatCount(line.reorderPoint)],
    ['Par', formatCount(line.parLevel)],
  ];
  return (
    <li data-testid="suggestion-line" data-item-id={line.itemId} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold break-words text-slate-900">{line.itemName}</p>
        <dl className="mt-0.5 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
          {facts.map(([label, value]) => (
            <div key={label} className="flex gap-1">
              <dt>{label}</dt>
              <dd className="font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="flex items-center justify-between gap-3 sm:justify-end">
        <p className="text-right text-sm">
          <span className="block font-semibold text-slate-900 tabular-nums" data-testid="suggested-quantity">
            {units(line.quantity, line.unit)}
          </span>
          <span className="block text-xs text-slate-600 tabular-nums">
            {formatCents(line.unitPriceCents)} each · <span className="font-medium text-slate-900">{formatCents(line.lineTotalCents)}</span>
          </span>
        </p>
        <Button
          variant="ghost"
          size="icon"
          className="size-9 text-slate-700"
          aria-label={`Dismiss the suggestion for ${line.itemName}`}
          title="Dismiss"
          disabled={disabled || dismiss.isPending}
          onClick={() =>
            dismiss.mutate(line.id, {
              onSuccess: () => toast({ title: 'Suggestion dismissed', description: line.itemName }),
              onError: (error) => void reportMutationError(error, 'Failed to dismiss the suggestion', { withReason: true }),
            })
          }
        >
          {dismiss.isPending ? <Spinner className="size-4" /> : <X aria-hidden="true" />}
        </Button>
      </div>
    </li>
  );
}
