import { useState } from 'react';
import { z } from 'zod';
import { CONDITION_LIMITS, ZNewConditionCode, type TConditionCode, type TNewConditionCode } from '#domain/condition-codes';
import { useAddConditionCode, useChangeConditionCode } from '../../api/formulary/save-catalogue-entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { ActiveCheckbox, FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

type TValues = TNewConditionCode & { isActive: boolean };
const FIELDS = ['code', 'title', 'isActive'] as const;
/** The server's rules for a new code, and whether it is offered (sent on an edit only). */
const ZForm = ZNewConditionCode.extend({ isActive: z.boolean() });

/**
 * 'Add Code' and 'Edit' (formulary.manage): an ICD-10-CM code the starter list lacks, or a code
 * retired or restored. A shipped code keeps ICD-10-CM's title; only the clinic's own are renamed.
 */
export function ConditionCodeDialog({ code, onClose }: { code: TConditionCode | null; onClose: () => void }) {
  const add = useAddConditionCode();
  const change = useChangeConditionCode();
  const [stale, setStale] = useState<string | null>(null);
  const form = useAppForm<TValues, TValues>({
    schema: ZForm,
    defaultValues: { code: code?.code ?? '', title: code?.title ?? '', isActive: code?.isActive ?? true },
    fields: FIELDS,
  });
  const {
    register,
    formState: { errors },
  } = form;
  const saving = add.isPending || change.isPending;
  const shipped = code !== null && code.source !== 'clinic';

  const failed = (error: unknown) => {
    const described = form.failed(error, code ? 'Failed to save the code' : 'Failed to add the code', { withReason: true });
    if (!described) return;
    const reason = apiErrorCode(error);
    if (reason === 'record.stale') setStale(describeApiError(error).message);
    else if (reason === 'record.conflict') form.setError('code', { type: 'server', message: described.message }, { shouldFocus: true });
    else return;
    form.setFormError(null);
  };
  const saved = (result: TConditionCode) => {
    toast({ title: code ? 'Code saved' : 'Code added', description: `${result.code} ${result.title}`, variant: 'success' });
    onClose();
  };

  const onSubmit = form.onSubmit((values) => {
    if (!code) return add.mutate({ code: values.code, title: values.title }, { onSuccess: saved, onError: failed });
    change.mutate(
      { code: code.code, change: { ...(shipped ? {} : { title: values.title }), isActive: values.isActive, updatedAt: code.updatedAt } },
      { onSuccess: saved, onError: failed },
    );
  });

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-xl"
      testId="condition-code-dialog"
      title={code ? `Edit ${code.code}` : 'New Condition Code'}
      description={
        shipped ? "A shipped code keeps ICD-10-CM's title: retire it, or add a code of your own." : 'An ICD-10-CM code, such as E11.9, and its title.'
      }
    >
      <form noValidate autoComplete="off" aria-label={code ? 'Edit condition code' : 'New condition code'} className="space-y-4" onSubmit={onSubmit}>
        {stale && <StaleBanner message={stale} reloadLabel="Close and reopen" reloading={false} onReload={onClose} testId="condition-code-stale" />}
        <FormField id="condition-code" label="Code" required error={errors.code?.message} testId="code">
          {(control) => <Input {...control} placeholder="E11.9" className="max-w-40 uppercase" {...register('code')} disabled={saving || code !== null} />}
        </FormField>
        <FormField id="condition-title" label="Title" required error={errors.title?.message} testId="title">
          {(control) => <Input {...control} maxLength={CONDITION_LIMITS.title} {...register('title')} disabled={saving || shipped} />}
        </FormField>
        {code && (
          <ActiveCheckbox
            id="condition-active"
            label="Offered"
            hint="Untick to retire it: it leaves the problem form; problems that name it keep it."
            {...register('isActive')}
            disabled={saving}
          />
        )}
        {form.formError && <FormErrorAlert error={form.formError} testId="condition-code-error" />}
        <FormDialogFooter saving={saving} blocked={Boolean(stale)} submitLabel={code ? 'Save Code' : 'Add Code'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
