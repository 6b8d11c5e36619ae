import { Ban, ClipboardCheck, FilePen, PackageCheck } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import { mayReviewLab, type TLabOrderDetail } from '#domain/labs';
import { can } from '#domain/permissions';
import { LAB_ORDER_WORKFLOW, movesFrom } from '#domain/workflows';
import { useMoveLabOrder } from '../../api/labs/move-lab-order.ts';
import { useReviewLabOrder } from '../../api/labs/review-lab-order.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * The buttons of one order, by what this user may do (the server decides again): the workflow's
 * moves from its status (Mark Collected, Cancel Order with its reason, Enter Results), Correct
 * Results once they are in, and Mark Reviewed for its ordering provider or whoever reviews any.
 */
export function LabOrderActions({
  order,
  user,
  onEnterResults,
  onCancelOrder,
}: {
  order: TLabOrderDetail;
  user: TCurrentUser;
  onEnterResults: () => void;
  onCancelOrder: () => void;
}) {
  const move = useMoveLabOrder();
  const review = useReviewLabOrder();
  const moves = movesFrom(LAB_ORDER_WORKFLOW, user, order.status);
  const collect = moves.find((m) => m.to === 'pending');
  const cancel = moves.find((m) => m.to === 'cancelled');
  const enter = moves.find((m) => m.via);
  const correct = order.status === 'received' && can(user, 'labs.enterResults');
  const reviewable = order.status === 'received' && !order.reviewedAt && mayReviewLab(user, order);
  const busy = move.isPending || review.isPending;
  const subject = `${order.orderName} for ${order.patientName}`;
  if (!collect && !cancel && !enter && !correct && !reviewable) return null;

  return (
    <div className="flex flex-wrap items-center gap-2 border-t pt-4" data-testid="lab-order-actions">
      {reviewable && (
        <Button
          disabled={busy}
          onClick={() =>
            review.mutate(
              { id: order.id, updatedAt: order.updatedAt },
              {
                onSuccess: () => toast({ title: 'Results reviewed', description: subject, variant: 'success' }),
                onError: (error) => void reportMutationError(error, 'Failed to review the results', { withReason: true }),
              },
            )
          }
        >
          {review.isPending ? <Spinner className="size-4 text-white" /> : <ClipboardCheck aria-hidden="true" />}
          Mark Reviewed
        </Button>
      )}
      {enter && (
        <Button disabled={busy} onClick={onEnterResults}>
          <FilePen aria-hidden="true" />
          {enter.label}
        </Button>
      )}
      {collect && (
        <Button
          variant={enter ? 'outline' : 'default'}
          disabled={busy}
          onClick={() =>
            move.mutate(
              { id: order.id, changes: { status: collect.to, updatedAt: order.updatedAt } },
              {
                onSuccess: () => toast({ title: 'Specimen collected', description: subject, variant: 'success' }),
                onError: (error) => void reportMutationError(error, 'Failed to update the lab order', { withReason: true }),
              },
            )
          }
        >
          {move.isPending ? <Spinner className="size-4" /> : <PackageCheck aria-hidden="true" />}
          {collect.label}
        </Button>
      )}
      {correct && (
        <Button variant="outline" disabled={busy} onClick={onEnterResults}>
          <FilePen aria-hidden="true" />
          Correct Results
        </Button>
      )}
      {cancel && (
        <Button variant="outline" className="text-red-700 hover:bg-red-50" disabled={busy} onClick={onCancelOrder}>
          <Ban aria-hidden="true" />
          {cancel.label}
        </Button>
      )}
    </div>
  );
}
