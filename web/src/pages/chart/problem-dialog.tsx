import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { CHART_LIMITS, PROBLEM_STATUSES, PROBLEM_VERIFICATIONS, ZProblemFields, type TConditionOption, type TProblem } from '#domain/chart';
import type { TCurrentUser } from '#domain/auth';
import { useChangeEntry, useConditions, useRecordEntry } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { CataloguePicker, type TCatalogueOption } from '../../components/catalogue-picker.tsx';
import { PROBLEM_STATUS_LABELS, VERIFICATION_LABELS } from './chart-labels.ts';
import { Choice } from '../../components/choice-field.tsx';
import { entryDialogDescription } from './entry-dialog-parts.tsx';

interface TProblemFormValues {
  condition: { code: string; name: string };
  clinicalStatus: (typeof PROBLEM_STATUSES)[number];
  verification: (typeof PROBLEM_VERIFICATIONS)[number];
  onset: string;
  abatement: string;
  note: string;
}

const valuesOf = (problem: TProblem | null): TProblemFormValues => ({
  condition: { code: problem?.condition.code ?? '', name: problem?.condition.name ?? '' },
  clinicalStatus: problem?.clinicalStatus ?? 'active',
  verification: problem?.verification ?? 'confirmed',
  onset: problem?.onset ?? '',
  abatement: problem?.abatement ?? '',
  note: problem?.note ?? '',
});

/** The form's values as the API takes them, checked by the server's own rules (ZProblemFields). */
const ZProblemForm = z
  .object({
    condition: z.object({ code: z.string(), name: z.string() }),
    clinicalStatus: z.enum(PROBLEM_STATUSES),
    verification: z.enum(PROBLEM_VERIFICATIONS),
    onset: z.string(),
    abatement: z.string(),
    note: z.string(),
  })
  .transform((v): z.input<typeof ZProblemFields> => ({
    condition: { code: v.condition.code || null, name: v.condition.name.trim() || null },
    clinicalStatus: v.clinicalStatus,
    verification: v.verification,
    onset: v.onset || null,
    abatement: v.abatement || null,
    note: v.note.trim() || null,
  }))
  .pipe(ZProblemFields);

const FIELDS = ['condition.code', 'condition.name', 'clinicalStatus', 'verification', 'onset', 'abatement', 'note'] as const;

function useConditionOptions(term: string): { data?: (TCatalogueOption & { option: TConditionOption })[] } {
  const found = useConditions(term);
  return { data: found.data?.map((option) => ({ key: option.code, label: option.title, hint: option.code, option })) };
}

/** 'Add problem' or 'Edit problem': a condition from the ICD-10-CM list (or free text), its status, verification and dates. */
export function ProblemDialog({
  patientId,
  problem,
  user,
  initialName = '',
  onClose,
}: {
  patientId: string;
  problem: TProblem | null;
  user: TCurrentUser;
  /** A new entry's condition as first typed (from the notes of her previous record). */
  initialName?: string;
  onClose: () => void;
}) {
  const record = useRecordEntry<TProblem>('problems');
  const change = useChangeEntry<TProblem>('problems');
  const busy = record.isPending || change.isPending;
  const form = useAppForm<TProblemFormValues, z.output<typeof ZProblemForm>>({
    schema: ZProblemForm,
    defaultValues: problem ? valuesOf(problem) : { ...valuesOf(null), condition: { code: '', name: initialName } },
    fields: FIELDS,
  });
  const errors = form.formState.errors;
  const onSubmit = form.onSubmit((fields) => {
    const done = (saved: TProblem) => {
      toast({
        title: problem ? 'Problem updated' : saved.state === 'draft' ? 'Problem drafted for a nurse to confirm' : 'Problem recorded',
        variant: 'success',
      });
      onClose();
    };
    const failed = (error: unknown) => form.failed(error, problem ? 'Could not update the problem' : 'Could not record the problem', { withReason: true });
    if (problem) change.mutate({ patientId, entryId: problem.id, change: { ...fields, version: problem.version } }, { onSuccess: done, onError: failed });
    else record.mutate({ patientId, fields }, { onSuccess: done, onError: failed });
  });
  const conditionError = errors.condition?.code?.message ?? errors.condition?.name?.message ?? errors.condition?.message;
  return (
    <FormDialog
      onClose={onClose}
      title={problem ? 'Edit problem' : 'Add problem'}
      description={entryDialogDescription(user)}
      className="max-w-xl"
      testId="problem-dialog"
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        <FormField id="problem-condition" label="Condition" required error={conditionError} testId="condition">
          {(controlProps) => (
            <Controller
              control={form.control}
              name="condition"
              render={({ field }) => (
                <CataloguePicker
                  id={controlProps.id}
                  text={field.value.name}
                  codedAs={field.value.code ? `ICD-10-CM ${field.value.code}` : null}
                  placeholder="Type a condition or an ICD-10-CM code"
                  useOptions={useConditionOptions}
                  onType={(name) => field.onChange({ code: '', name })}
                  onChoose={({ option }) => field.onChange({ code: option.code, name: option.title })}
                  invalid={Boolean(conditionError)}
                  describedBy={controlProps['aria-describedby']}
                  disabled={busy}
                />
              )}
            />
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <Choice
            id="problem-status"
            label="Clinical status"
            options={PROBLEM_STATUSES}
            labels={PROBLEM_STATUS_LABELS}
            {...form.register('clinicalStatus')}
            disabled={busy}
          />
          <Choice
            id="problem-verification"
            label="Verification"
            options={PROBLEM_VERIFICATIONS.filter((v) => v !== 'entered_in_error')}
            labels={VERIFICATION_LABELS}
            {...form.register('verification')}
            disabled={busy}
          />
          <FormField id="problem-onset" label="Onset" error={errors.onset?.message} testId="onset">
            {(controlProps) => <Input {...controlProps} type="date" {...form.register('onset')} disabled={busy} />}
          </FormField>
          <FormField id="problem-abatement" label="Resolved on" error={errors.abatement?.message} testId="abatement">
            {(controlProps) => <Input {...controlProps} type="date" {...form.register('abatement')} disabled={busy} />}
          </FormField>
        </div>
        <FormField id="problem-note" label="Note" error={errors.note?.message} testId="note">
          {(controlProps) => <Textarea {...controlProps} rows={2} maxLength={CHART_LIMITS.note} {...form.register('note')} disabled={busy} />}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="problem-error" />}
        <FormDialogFooter saving={busy} submitLabel={problem ? 'Save Problem' : 'Add Problem'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
