import { z } from 'zod';
import { LAB_LIMITS, ZUpdateLabOrder, type TLabOrderDetail } from '#domain/labs';
import { isStaleLabOrder, useMoveLabOrder } from '../../api/labs/move-lab-order.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** A cancellation says why (the server's rule: 'Say why the order is cancelled'). */
const ZCancellation = z.object({
  statusReason: ZUpdateLabOrder.shape.statusReason.unwrap().refine((reason) => reason !== null, 'Say why the order is cancelled'),
});
type TCancellationInput = z.input<typeof ZCancellation>;

/** 'Cancel Order': final, with a required reason kept on the order. */
export function CancelLabOrderDialog({ order, onClose }: { order: TLabOrderDetail; onClose: () => void }) {
  const move = useMoveLabOrder();
  const form = useAppForm<TCancellationInput, z.output<typeof ZCancellation>>({
    schema: ZCancellation,
    defaultValues: { statusReason: '' },
    fields: ['statusReason'],
  });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit(({ statusReason }) => {
    move.mutate(
      { id: order.id, changes: { status: 'cancelled', statusReason, updatedAt: order.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: 'Lab order cancelled', description: `${order.orderName} for ${order.patientName}`, variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const described = form.failed(error, 'Failed to cancel the lab order', { withReason: true });
          // Someone moved it meanwhile: the order behind this dialog shows what it is now.
          if (described && isStaleLabOrder(error)) onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      onClose={onClose}
      testId="cancel-lab-order-dialog"
      title="Cancel Order"
      description={`${order.orderName} for ${order.patientName}. A cancelled order takes no results; order again if the test is still needed.`}
    >
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        <FormField id="lab-cancel-reason" label="Reason" required error={errors.statusReason?.message} testId="statusReason">
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              maxLength={LAB_LIMITS.reason}
              placeholder="e.g. Ordered twice; the other order stands"
              {...register('statusReason')}
              disabled={move.isPending}
            />
          )}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="cancel-lab-order-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={move.isPending}>
            Keep Order
          </Button>
          <Button type="submit" variant="destructive" disabled={move.isPending}>
            {move.isPending && <Spinner className="size-4 text-white" />}
            Cancel Order
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
