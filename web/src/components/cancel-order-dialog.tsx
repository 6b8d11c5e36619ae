import { z } from 'zod';
import { optionalText } from '#domain/text';
import { FormErrorAlert } from './form-error-alert.tsx';
import { Button } from './ui/button.tsx';
import { DialogFooter } from './ui/dialog.tsx';
import { FormDialog } from './ui/form-dialog.tsx';
import { FormField } from './ui/form-field.tsx';
import { Spinner } from './ui/spinner.tsx';
import { Textarea } from './ui/textarea.tsx';
import { useAppForm } from '../lib/use-app-form.ts';

/**
 * 'Cancel Order' of a lab or supply order: final, with a required reason kept on the order (the
 * workflows' `reasonRequired`). The area sends the move and says what it did; this asks why.
 */
export function CancelOrderDialog({
  area,
  description,
  maxLength,
  placeholder,
  pending,
  cancel,
  isOutdated,
  onClose,
}: {
  /** Names the dialog's test ids and field: 'lab', 'supply'. */
  area: string;
  description: string;
  maxLength: number;
  placeholder: string;
  pending: boolean;
  /** Sends the cancellation with its reason; resolves once it is done (the area toasts), rejects with the API's error. */
  cancel: (statusReason: string) => Promise<unknown>;
  /** Someone moved the order meanwhile: the dialog closes on the order as it is now. */
  isOutdated: (error: unknown) => boolean;
  onClose: () => void;
}) {
  const schema = z.object({ statusReason: optionalText(maxLength).refine((reason) => reason !== null, 'Say why the order is cancelled') });
  const form = useAppForm<z.input<typeof schema>, z.output<typeof schema>>({ schema, defaultValues: { statusReason: '' }, fields: ['statusReason'] });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit(async ({ statusReason }) => {
    try {
      await cancel(statusReason!);
      onClose();
    } catch (error) {
      const described = form.failed(error, `Failed to cancel the ${area} order`, { withReason: true });
      if (described && isOutdated(error)) onClose();
    }
  });

  return (
    <FormDialog onClose={onClose} testId={`cancel-${area}-order-dialog`} title="Cancel Order" description={description}>
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        <FormField id={`${area}-cancel-reason`} label="Reason" required error={errors.statusReason?.message} testId="statusReason">
          {(control) => <Textarea {...control} rows={3} maxLength={maxLength} placeholder={placeholder} {...register('statusReason')} disabled={pending} />}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId={`cancel-${area}-order-error`} />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Keep Order
          </Button>
          <Button type="submit" variant="destructive" disabled={pending}>
            {pending && <Spinner className="size-4 text-white" />}
            Cancel Order
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
