import { formatCount } from '#domain/report-format';
import { SUPPLY_COUNT_REASON_LABELS, SUPPLY_MOVEMENT_LABELS, type TSupplyItem, type TSupplyMovement } from '#domain/supplies';
import { useSupplyMovements } from '../../api/supplies/supply-movements.ts';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { units } from './supply-format.ts';

/** What a movement was, in words: 'Counted (damaged)', 'Received, order SO-2026-000123'. */
function whatHappened(movement: TSupplyMovement): string {
  const kind = SUPPLY_MOVEMENT_LABELS[movement.kind];
  if (movement.reason) return `${kind} (${SUPPLY_COUNT_REASON_LABELS[movement.reason].toLowerCase()})`;
  if (movement.orderNumber) return `${kind}, order ${movement.orderNumber}`;
  return kind;
}

/**
 * An item's history: every change of its stock, newest first, with what it was, by whom, the
 * change and the balance it left. On hand is always the sum of these.
 */
export function MovementsDialog({ item, timeZone, onClose }: { item: TSupplyItem; timeZone: string; onClose: () => void }) {
  const query = useSupplyMovements(item.id);
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;
  const movements = data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" data-testid="movements-dialog">
        <DialogHeader className="pr-6">
          <DialogTitle>Stock history: {item.name}</DialogTitle>
          <DialogDescription>{units(item.onHand, item.unit)} on hand now, the sum of the changes below (newest first).</DialogDescription>
        </DialogHeader>
        {isPending ? (
          <div>
            <p role="status" className="sr-only">
              Loading the history
            </p>
            <div className="space-y-2" aria-hidden="true">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-8 w-full" />
              ))}
            </div>
          </div>
        ) : isError && !isFetchNextPageError ? (
          <ErrorState title="Could not load the history" error={error} onRetry={() => void refetch()} />
        ) : movements.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600" data-testid="movements-empty">
            No stock changes recorded yet.
          </p>
        ) : (
          <div className="min-w-0">
            <table className="w-full border-collapse text-sm" data-testid="movements">
              <thead>
                <tr className="border-b text-left text-xs text-slate-600">
                  <th scope="col" className="py-2 pr-2 font-medium">
                    What
                  </th>
                  <th scope="col" className="py-2 pr-2 text-right font-medium">
                    Change
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody>
                {movements.map((movement) => (
                  <tr key={movement.id} className="border-b align-top" data-testid="movement" data-kind={movement.kind}>
                    <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-900">
                      <span className="break-words">{whatHappened(movement)}</span>
                      <span className="block text-xs font-normal text-slate-600">
                        {formatDayTime(movement.at, timeZone)} by {movement.actorName}
                      </span>
                      {movement.note && <span className="block text-xs font-normal break-words text-slate-700">{movement.note}</span>}
                    </th>
                    <td className={cn('py-2 pr-2 text-right font-semibold tabular-nums', movement.quantity < 0 ? 'text-red-800' : 'text-green-800')}>
                      {movement.quantity > 0 ? '+' : movement.quantity < 0 ? '−' : ''}
                      {formatCount(Math.abs(movement.quantity))}
                    </td>
                    <td className="py-2 text-right tabular-nums">{formatCount(movement.balanceAfter)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <LoadMore list={query} failedText="Could not load more of the history." size="sm" className="mt-4" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
