import { z } from 'zod';
import { SUPPLY_LIMITS, ZRecordSupplyUse, type TRecordSupplyUse, type TSupplyItem } from '#domain/supplies';
import { useRecordSupplyUse } from '../../api/supplies/record-supply-use.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { units } from './supply-format.ts';

interface TUseValues {
  quantity: number;
  note: string;
}

const ZUseForm = z.object({ quantity: ZRecordSupplyUse.shape.quantity, note: ZRecordSupplyUse.shape.note }) as unknown as z.ZodType<
  TRecordSupplyUse,
  TUseValues
>;

/** 'Record use' (supplies.stock): 'used 2 boxes', taken off the stock as a movement of its own. */
export function RecordUseDialog({ item, onClose }: { item: TSupplyItem; onClose: () => void }) {
  const use = useRecordSupplyUse();
  const form = useAppForm<TUseValues, TRecordSupplyUse>({
    schema: ZUseForm,
    check: (values) => ({
      quantity: Number.isInteger(values.quantity) && values.quantity > item.onHand ? `Only ${units(item.onHand, item.unit)} on hand` : undefined,
    }),
    defaultValues: { quantity: 1, note: '' },
    fields: ['quantity', 'note'],
  });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit((body) => {
    use.mutate(
      { id: item.id, body },
      {
        onSuccess: (saved) => {
          toast({ title: 'Use recorded', description: `${item.name}: ${units(saved.onHand, saved.unit)} left`, variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const described = form.failed(error, 'Failed to record the use');
          // More than the stock on record: the quantity's problem, said under it.
          if (described && apiErrorCode(error) === 'supply.notEnoughStock') {
            form.setError('quantity', { type: 'server', message: describeApiError(error).message }, { shouldFocus: true });
            form.setFormError(null);
          }
        },
      },
    );
  });

  return (
    <FormDialog
      onClose={onClose}
      testId="record-use-dialog"
      title="Record use"
      description={`${item.name}: ${units(item.onHand, item.unit)} on hand. What was used comes off the stock.`}
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        <FormField id="supply-use-quantity" label={`Quantity used (${item.unit})`} required error={errors.quantity?.message} testId="quantity">
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              max={item.onHand}
              step={1}
              className="w-32"
              {...register('quantity', { valueAsNumber: true })}
              disabled={use.isPending}
            />
          )}
        </FormField>
        <FormField id="supply-use-note" label="Note" error={errors.note?.message} testId="note">
          {(control) => (
            <Input {...control} maxLength={SUPPLY_LIMITS.reason} placeholder="e.g. Dressing change, room 3" {...register('note')} disabled={use.isPending} />
          )}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="record-use-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={use.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={use.isPending}>
            {use.isPending && <Spinner className="size-4 text-white" />}
            Record use
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
