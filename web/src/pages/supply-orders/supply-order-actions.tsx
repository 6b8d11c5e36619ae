import { Ban, PackageCheck, PackageOpen, Truck } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import type { TSupplyOrderStatus } from '#domain/orders';
import type { TSupplyOrder } from '#domain/supplies';
import { movesFrom, SUPPLY_ORDER_WORKFLOW } from '#domain/workflows';
import { useMoveSupplyOrder } from '../../api/supplies/move-supply-order.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';

/** What each plain move tells the user once made. */
const DONE: Partial<Record<TSupplyOrderStatus, string>> = { processing: 'Processing started', ready_for_pickup: 'Marked ready for pickup' };
const ICONS: Partial<Record<TSupplyOrderStatus, typeof Truck>> = { processing: PackageOpen, ready_for_pickup: Truck };

/**
 * The buttons of one order, by what this user may do from its status (SUPPLY_ORDER_WORKFLOW;
 * the server decides again): the supplier's Start Processing and Ready for Pickup (her own
 * orders), made at once; Confirm Pickup, made by its own request through the pickup dialog;
 * Cancel Order, with its reason. `compact`: a list row's smaller buttons.
 */
export function SupplyOrderActions({
  order,
  user,
  compact = false,
  onPickup,
  onCancel,
  className,
}: {
  order: TSupplyOrder;
  user: TCurrentUser;
  compact?: boolean;
  onPickup: (order: TSupplyOrder) => void;
  onCancel: (order: TSupplyOrder) => void;
  className?: string;
}) {
  const move = useMoveSupplyOrder();
  const moves = movesFrom(SUPPLY_ORDER_WORKFLOW, user, order.status, order);
  const plain = moves.filter((m) => !m.via && m.to !== 'cancelled');
  const pickup = moves.find((m) => m.via);
  const cancel = moves.find((m) => m.to === 'cancelled');
  if (plain.length === 0 && !pickup && !cancel) return null;

  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)} data-testid="supply-order-actions">
      {plain.map((m) => {
        const Icon = ICONS[m.to] ?? PackageOpen;
        return (
          <Button
            key={m.to}
            size={compact ? 'sm' : 'default'}
            disabled={move.isPending}
            onClick={() =>
              move.mutate(
                { id: order.id, changes: { status: m.to, updatedAt: order.updatedAt } },
                {
                  onSuccess: (moved) => toast({ title: DONE[m.to] ?? 'Order updated', description: `Order ${moved.orderNumber}`, variant: 'success' }),
                  onError: (error) => void reportMutationError(error, `Failed to update order ${order.orderNumber}`, { withReason: true }),
                },
              )
            }
          >
            {move.isPending ? <Spinner className="size-4 text-white" /> : <Icon aria-hidden="true" />}
            {m.label}
            {compact && <span className="sr-only">: order {order.orderNumber}</span>}
          </Button>
        );
      })}
      {pickup && (
        <Button size={compact ? 'sm' : 'default'} disabled={move.isPending} onClick={() => onPickup(order)}>
          <PackageCheck aria-hidden="true" />
          {pickup.label}
          {compact && <span className="sr-only">: order {order.orderNumber}</span>}
        </Button>
      )}
      {cancel && (
        <Button
          variant="outline"
          size={compact ? 'sm' : 'default'}
          className="text-red-700 hover:bg-red-50"
          disabled={move.isPending}
          onClick={() => onCancel(order)}
        >
          <Ban aria-hidden="true" />
          {cancel.label}
          {compact && <span className="sr-only">: order {order.orderNumber}</span>}
        </Button>
      )}
    </div>
  );
}
