import { Controller } from 'react-hook-form';
import { ALLERGY_CATEGORIES, ALLERGY_CRITICALITIES, ALLERGY_SEVERITIES, ALLERGY_TYPES, CHART_LIMITS, type TAllergy } from '#domain/chart';
import type { TCurrentUser } from '#domain/auth';
import { useChangeEntry, useRecordEntry } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { allergyFormValues, ZAllergyForm, type TAllergyFormOutput, type TAllergyFormValues } from './allergy-form-values.ts';
import { ALLERGY_CATEGORY_LABELS, ALLERGY_STATUS_LABELS, ALLERGY_TYPE_LABELS, CRITICALITY_LABELS, SEVERITY_LABELS } from './chart-labels.ts';
import { Choice } from '../../components/choice-field.tsx';
import { entryDialogDescription } from './entry-dialog-parts.tsx';
import { SubstancePicker } from './substance-picker.tsx';

const FIELDS = ['substance.name', 'substance.code', 'type', 'category', 'reactions', 'severity', 'criticality', 'onset', 'status', 'note'] as const;

/**
 * 'Add allergy' or 'Edit allergy': the substance from the catalogue (or free text), its type and
 * category, reactions, severity, criticality and onset. A scribe's is a draft a nurse confirms.
 */
export function AllergyDialog({
  patientId,
  allergy,
  user,
  initialName = '',
  onClose,
}: {
  patientId: string;
  allergy: TAllergy | null;
  user: TCurrentUser;
  /** A new entry's substance as first typed (from the notes of her previous record). */
  initialName?: string;
  onClose: () => void;
}) {
  const record = useRecordEntry<TAllergy>('allergies');
  const change = useChangeEntry<TAllergy>('allergies');
  const busy = record.isPending || change.isPending;
  const form = useAppForm<TAllergyFormValues, TAllergyFormOutput>({
    schema: ZAllergyForm,
    defaultValues: allergy ? allergyFormValues(allergy) : { ...allergyFormValues(null), substance: { kind: '', code: '', name: initialName } },
    fields: FIELDS,
    serverPaths: { 'reactions.0': 'reactions' } as never,
  });
  const { register, control, formState } = form;
  const errors = formState.errors;
  const onSubmit = form.onSubmit((fields) => {
    const done = (saved: TAllergy) => {
      toast({
        title: allergy ? 'Allergy updated' : saved.state === 'draft' ? 'Allergy drafted for a nurse to confirm' : 'Allergy recorded',
        variant: 'success',
      });
      onClose();
    };
    const failed = (error: unknown) => form.failed(error, allergy ? 'Could not update the allergy' : 'Could not record the allergy', { withReason: true });
    if (allergy) change.mutate({ patientId, entryId: allergy.id, change: { ...fields, version: allergy.version } }, { onSuccess: done, onError: failed });
    else record.mutate({ patientId, fields }, { onSuccess: done, onError: failed });
  });
  const substanceError = errors.substance?.code?.message ?? errors.substance?.name?.message ?? errors.substance?.message;
  return (
    <FormDialog
      onClose={onClose}
      title={allergy ? 'Edit allergy' : 'Add allergy'}
      description={entryDialogDescription(user)}
      className="max-w-xl"
      testId="allergy-dialog"
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        <FormField id="allergy-substance" label="Substance" required error={substanceError} testId="substance">
          {(controlProps) => (
            <Controller
              control={control}
              name="substance"
              render={({ field }) => (
                <SubstancePicker
                  id={controlProps.id}
                  value={field.value}
                  invalid={Boolean(substanceError)}
                  describedBy={controlProps['aria-describedby']}
                  disabled={busy}
                  onChange={(substance, category) => {
                    field.onChange(substance);
                    if (category) form.setValue('category', category, { shouldDirty: true });
                  }}
                />
              )}
            />
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <Choice id="allergy-type" label="Type" options={ALLERGY_TYPES} labels={ALLERGY_TYPE_LABELS} {...register('type')} disabled={busy} />
          <Choice
            id="allergy-category"
            label="Category"
            required
            error={errors.category?.message}
            options={ALLERGY_CATEGORIES}
            labels={ALLERGY_CATEGORY_LABELS}
            blank="Choose"
            {...register('category')}
            disabled={busy}
          />
          <Choice
            id="allergy-severity"
            label="Severity"
            options={ALLERGY_SEVERITIES}
            labels={SEVERITY_LABELS}
            blank="Not known"
            {...register('severity')}
            disabled={busy}
          />
          <Choice
            id="allergy-criticality"
            label="Criticality"
            options={ALLERGY_CRITICALITIES}
            labels={CRITICALITY_LABELS}
            {...register('criticality')}
            disabled={busy}
          />
        </div>
        <FormField id="allergy-reactions" label="Reactions (separate with commas)" error={errors.reactions?.message} testId="reactions">
          {(controlProps) => <Input {...controlProps} placeholder="Hives, swelling" {...register('reactions')} disabled={busy} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="allergy-onset" label="Onset" error={errors.onset?.message} testId="onset">
            {(controlProps) => <Input {...controlProps} type="date" {...register('onset')} disabled={busy} />}
          </FormField>
          {allergy && (
            <Choice
              id="allergy-status"
              label="Status"
              options={['active', 'inactive', 'resolved'] as const}
              labels={ALLERGY_STATUS_LABELS}
              {...register('status')}
              disabled={busy}
            />
          )}
        </div>
        <FormField id="allergy-note" label="Note" error={errors.note?.message} testId="note">
          {(controlProps) => <Textarea {...controlProps} rows={2} maxLength={CHART_LIMITS.note} {...register('note')} disabled={busy} />}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="allergy-error" />}
        <FormDialogFooter saving={busy} submitLabel={allergy ? 'Save Allergy' : 'Add Allergy'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
