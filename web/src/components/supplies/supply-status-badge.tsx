import { SUPPLY_STATUS_LABELS } from '#domain/orders';
import type { TSupplyOrderStatus } from '#domain/orders';
import { cn } from '../../lib/utils.ts';
import { Badge } from '../ui/badge.tsx';

/**
 * A supply order's status in words, coloured by what it waits for: the supplier (ordered,
 * processing), the clinic (ready for pickup, in orange like the supply notices), or nobody.
 */
const STATUS_STYLES: Record<TSupplyOrderStatus, string> = {
  ordered: 'bg-slate-100 text-slate-800',
  processing: 'bg-blue-100 text-blue-800',
  ready_for_pickup: 'bg-orange-100 text-orange-900',
  completed: 'bg-green-100 text-green-800',
  cancelled: 'bg-slate-200 text-slate-700 line-through decoration-slate-500',
};

export function SupplyStatusBadge({ status, className }: { status: TSupplyOrderStatus; className?: string }) {
  return (
    <Badge data-testid="supply-status" data-status={status} className={cn('border-transparent', STATUS_STYLES[status], className)}>
      {SUPPLY_STATUS_LABELS[status]}
    </Badge>
  );
}
