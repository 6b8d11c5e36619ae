import { z } from 'zod';
import { LAB_INBOX_LIMITS, ZRejectLabInbox, type TLabInboxDetail } from '#domain/lab-interfaces';
import { useRejectLabInboxMessage } from '../../api/labs/lab-inbox-reject.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

const ZRejectForm = z.object({ reason: ZRejectLabInbox.shape.reason });

/**
 * 'Reject': a message nobody should file (a duplicate, another clinic's patient), with why. It
 * is kept with its reason; nothing is filed. Sent with the version shown, so a message someone
 * else handled meanwhile is refused rather than rejected twice.
 */
export function LabInboxRejectForm({ message, onDone, onCancel }: { message: TLabInboxDetail; onDone: () => void; onCancel: () => void }) {
  const reject = useRejectLabInboxMessage();
  const form = useAppForm<z.input<typeof ZRejectForm>, z.output<typeof ZRejectForm>>({
    schema: ZRejectForm,
    defaultValues: { reason: '' },
    fields: ['reason'],
  });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit(({ reason }) => {
    reject.mutate(
      { id: message.id, body: { reason, updatedAt: message.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: 'Message rejected', description: `From ${message.sender}; nothing was filed.`, variant: 'success' });
          onDone();
        },
        onError: (error) => void form.failed(error, 'Failed to reject the message', { withReason: true }),
      },
    );
  });

  return (
    <form noValidate className="space-y-4" aria-label="Reject the message" onSubmit={onSubmit} data-testid="lab-inbox-reject-form">
      <FormField
        id="lab-inbox-reject-reason"
        label="Reason"
        required
        error={errors.reason?.message}
        hint="Kept with the message. Ask the lab to send it again if the results are needed."
        testId="reason"
      >
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={LAB_INBOX_LIMITS.reason}
            placeholder="e.g. Another clinic’s patient; sent twice"
            {...register('reason')}
            disabled={reject.isPending}
          />
        )}
      </FormField>
      {form.formError && <FormErrorAlert error={form.formError} testId="lab-inbox-reject-error" />}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={reject.isPending}>
          Back
        </Button>
        <Button type="submit" variant="destructive" disabled={reject.isPending}>
          {reject.isPending && <Spinner className="size-4 text-white" />}
          Reject Message
        </Button>
      </DialogFooter>
    </form>
  );
}
