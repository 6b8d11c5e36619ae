import { LAB_LIMITS, type TLabOrderDetail } from '#domain/labs';
import { isStaleLabOrder, useMoveLabOrder } from '../../api/labs/move-lab-order.ts';
import { CancelOrderDialog } from '../../components/cancel-order-dialog.tsx';
import { toast } from '../../lib/toast.ts';

/** 'Cancel Order': final, with a required reason kept on the order. */
export function CancelLabOrderDialog({ order, onClose }: { order: TLabOrderDetail; onClose: () => void }) {
  const move = useMoveLabOrder();
  return (
    <CancelOrderDialog
      area="lab"
      description={`${order.orderName} for ${order.patientName}. A cancelled order takes no results; order again if the test is still needed.`}
      maxLength={LAB_LIMITS.reason}
      placeholder="e.g. Ordered twice; the other order stands"
      pending={move.isPending}
      cancel={async (statusReason) => {
        await move.mutateAsync({ id: order.id, changes: { status: 'cancelled', statusReason, updatedAt: order.updatedAt } });
        toast({ title: 'Lab order cancelled', description: `${order.orderName} for ${order.patientName}`, variant: 'success' });
      }}
      isOutdated={isStaleLabOrder}
      onClose={onClose}
    />
  );
}
