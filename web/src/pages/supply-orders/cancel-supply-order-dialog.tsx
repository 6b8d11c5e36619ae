import { SUPPLY_LIMITS, type TSupplyOrder } from '#domain/supplies';
import { isOutdatedSupplyOrder, useMoveSupplyOrder } from '../../api/supplies/move-supply-order.ts';
import { CancelOrderDialog } from '../../components/cancel-order-dialog.tsx';
import { toast } from '../../lib/toast.ts';

/** 'Cancel Order' before the supplier starts on it: final, with a required reason kept on the order. */
export function CancelSupplyOrderDialog({ order, onClose }: { order: TSupplyOrder; onClose: () => void }) {
  const move = useMoveSupplyOrder();
  return (
    <CancelOrderDialog
      area="supply"
      description={`Order ${order.orderNumber}${order.supplierName ? ` with ${order.supplierName}` : ''}. The supplier has not started on it yet; a cancelled order cannot be reopened.`}
      maxLength={SUPPLY_LIMITS.reason}
      placeholder="e.g. Ordered twice; the other order stands"
      pending={move.isPending}
      cancel={async (statusReason) => {
        await move.mutateAsync({ id: order.id, changes: { status: 'cancelled', statusReason, updatedAt: order.updatedAt } });
        toast({ title: 'Supply order cancelled', description: `Order ${order.orderNumber}`, variant: 'success' });
      }}
      isOutdated={isOutdatedSupplyOrder}
      onClose={onClose}
    />
  );
}
