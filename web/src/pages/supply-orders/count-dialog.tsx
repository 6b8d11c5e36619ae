import { z } from 'zod';
import {
  SUPPLY_COUNT_REASON_LABELS,
  SUPPLY_COUNT_REASONS,
  SUPPLY_LIMITS,
  ZRecordSupplyCount,
  type TRecordSupplyCount,
  type TSupplyItem,
} from '#domain/supplies';
import { useRecordSupplyCount } from '../../api/supplies/record-supply-count.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';
import { units } from './supply-format.ts';

interface TCountValues {
  counted: number;
  /** '' for none (a count that matches needs none). */
  reason: string;
  note: string;
  lot: string;
  expiresOn: string;
}

const shape = ZRecordSupplyCount.shape;
/** The server's own rules for each field; '' is none for the reason and the expiry. */
const ZCountForm = z.object({
  counted: shape.counted,
  reason: z
    .string()
    .transform((reason) => reason || null)
    .pipe(shape.reason.unwrap()),
  note: shape.note,
  lot: shape.lot,
  expiresOn: z
    .string()
    .transform((day) => day || null)
    .pipe(shape.expiresOn.unwrap()),
}) as unknown as z.ZodType<TRecordSupplyCount, TCountValues>;

/**
 * 'Count' (supplies.manage): what is on the shelf, and the lot and expiry found there. A count
 * that differs from the stock on record says why (expired, damaged, lost…); the difference is
 * recorded as a movement of its own.
 */
export function CountDialog({ item, onClose }: { item: TSupplyItem; onClose: () => void }) {
  const count = useRecordSupplyCount();
  const form = useAppForm<TCountValues, TRecordSupplyCount>({
    schema: ZCountForm,
    check: (values) => ({
      reason:
        Number.isInteger(values.counted) && values.counted !== item.onHand && !values.reason ? 'Say why the count differs from the stock on record' : undefined,
    }),
    defaultValues: { counted: item.onHand, reason: '', note: '', lot: item.lot ?? '', expiresOn: item.expiresOn ?? '' },
    fields: ['counted', 'reason', 'note', 'lot', 'expiresOn'],
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const counted = watch('counted');
  const difference = Number.isInteger(counted) ? counted - item.onHand : null;
  const saving = count.isPending;

  const onSubmit = form.onSubmit((body) => {
    count.mutate(
      { id: item.id, body },
      {
        onSuccess: (saved) => {
          toast({ title: 'Count recorded', description: `${item.name}: ${units(saved.onHand, saved.unit)} on hand`, variant: 'success' });
          onClose();
        },
        onError: (error) => void form.failed(error, 'Failed to record the count'),
      },
    );
  });

  return (
    <FormDialog onClose={onClose} testId="count-dialog" title="Count stock" description={`${item.name}: ${units(item.onHand, item.unit)} on record.`}>
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="supply-count-counted" label={`Counted (${item.unit})`} required error={errors.counted?.message} testId="counted">
            {(control) => (
              <>
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  className="w-32"
                  {...register('counted', { valueAsNumber: true })}
                  disabled={saving}
                />
                <p className={cn('text-xs', difference ? 'font-semibold text-amber-900' : 'text-slate-600')} data-testid="count-difference">
                  {difference === null
                    ? '\u00a0'
                    : difference === 0
                      ? 'Matches the stock on record'
                      : `${difference > 0 ? '+' : ''}${difference} against the stock on record`}
                </p>
              </>
            )}
          </FormField>
          <FormField id="supply-count-reason" label="Reason for the difference" required={Boolean(difference)} error={errors.reason?.message} testId="reason">
            {(control) => (
              <select {...control} className={SELECT_CLASS} {...register('reason')} disabled={saving}>
                <option value="">{difference ? 'Select a reason' : 'None needed'}</option>
                {SUPPLY_COUNT_REASONS.map((reason) => (
                  <option key={reason} value={reason}>
                    {SUPPLY_COUNT_REASON_LABELS[reason]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id="supply-count-lot" label="Lot on the shelf" error={errors.lot?.message} testId="lot">
            {(control) => <Input {...control} maxLength={SUPPLY_LIMITS.lot} {...register('lot')} disabled={saving} />}
          </FormField>
          <FormField id="supply-count-expires" label="Expires on" error={errors.expiresOn?.message} testId="expiresOn">
            {(control) => <Input {...control} type="date" className="max-w-48" {...register('expiresOn')} disabled={saving} />}
          </FormField>
        </div>
        <FormField id="supply-count-note" label="Note" error={errors.note?.message} testId="note">
          {(control) => (
            <Input {...control} maxLength={SUPPLY_LIMITS.reason} placeholder="e.g. Two boxes water-damaged" {...register('note')} disabled={saving} />
          )}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="count-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner className="size-4 text-white" />}
            Record count
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
