import { useId, useState } from 'react';
import { z } from 'zod';
import { LICENSE_STATES, ZPrescriberRightsInput, type TPrescriber } from '#domain/prescriptions';
import { useGrantRights, usePrescribingStaff } from '../../api/prescriptions/prescribers.ts';
import { staffName } from '../../api/staff/staff.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** The form: whom (a new grant only), and her credentials, checked by the server's own rules. */
const ZForm = ZPrescriberRightsInput.omit({ updatedAt: true }).extend({ userId: z.string().uuid('Choose who prescribes') });
type TValues = z.input<typeof ZForm>;
const FIELDS = ['userId', 'licenseNumber', 'licenseState', 'npi', 'deaNumber'] as const;

/**
 * 'Grant Rights' and 'Edit' (prescriptions.grant): an active admin or nurse, her license number
 * and state, NPI, and a DEA number if she is to sign controlled substances.
 */
export function PrescriberDialog({ prescriber, onClose }: { prescriber: TPrescriber | null; onClose: () => void }) {
  const grant = useGrantRights();
  const staff = usePrescribingStaff();
  const [stale, setStale] = useState<string | null>(null);
  const statesId = useId();
  const form = useAppForm<TValues, z.output<typeof ZForm>>({
    schema: ZForm,
    defaultValues: {
      userId: prescriber?.userId ?? '',
      licenseNumber: prescriber?.licenseNumber ?? '',
      licenseState: prescriber?.licenseState ?? '',
      npi: prescriber?.npi ?? '',
      deaNumber: prescriber?.deaNumber ?? '',
    },
    fields: FIELDS,
  });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit(({ userId, ...credentials }) =>
    grant.mutate(
      { userId, body: { ...credentials, ...(prescriber && !prescriber.revokedAt ? { updatedAt: prescriber.updatedAt } : {}) } },
      {
        onSuccess: (saved) => {
          toast({
            title: prescriber && !prescriber.revokedAt ? 'Credentials saved' : 'Prescribing rights granted',
            description: staffName(saved),
            variant: 'success',
          });
          onClose();
        },
        onError: (error) => {
          const described = form.failed(error, 'Failed to save the prescribing rights', { withReason: true });
          if (described && apiErrorCode(error) === 'record.stale') {
            setStale(describeApiError(error).message);
            form.setFormError(null);
          }
        },
      },
    ),
  );

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-xl"
      testId="prescriber-dialog"
      title={prescriber ? `Prescribing rights: ${staffName(prescriber)}` : 'Grant Prescribing Rights'}
      description="Only a user with rights signs prescriptions; a DEA number is needed for controlled substances."
    >
      <form noValidate autoComplete="off" aria-label="Prescribing rights" className="space-y-4" onSubmit={onSubmit}>
        {stale && <StaleBanner message={stale} reloadLabel="Close and reopen" reloading={false} onReload={onClose} testId="prescriber-stale" />}
        {!prescriber && (
          <FormField id="prescriber-user" label="Prescriber" required error={errors.userId?.message} testId="userId">
            {(control) => (
              <select {...control} className={SELECT_CLASS} {...register('userId')} disabled={grant.isPending} aria-busy={staff.isPending || undefined}>
                <option value="">{staff.isPending ? 'Loading the staff…' : staff.isError ? 'Could not load the staff' : 'Choose an admin or a nurse'}</option>
                {staff.data?.map((member) => (
                  <option key={member.id} value={member.id}>
                    {staffName(member)} ({member.role})
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="prescriber-license" label="License number" required error={errors.licenseNumber?.message} testId="licenseNumber">
            {(control) => <Input {...control} maxLength={40} {...register('licenseNumber')} disabled={grant.isPending} />}
          </FormField>
          <FormField id="prescriber-state" label="License state" required error={errors.licenseState?.message} testId="licenseState">
            {(control) => (
              <>
                <Input
                  {...control}
                  list={statesId}
                  maxLength={2}
                  placeholder="NY"
                  className="max-w-24 uppercase"
                  {...register('licenseState')}
                  disabled={grant.isPending}
                />
                <datalist id={statesId}>
                  {LICENSE_STATES.map((state) => (
                    <option key={state} value={state} />
                  ))}
                </datalist>
              </>
            )}
          </FormField>
          <FormField id="prescriber-npi" label="NPI" required error={errors.npi?.message} testId="npi">
            {(control) => <Input {...control} inputMode="numeric" maxLength={10} className="max-w-40" {...register('npi')} disabled={grant.isPending} />}
          </FormField>
          <FormField id="prescriber-dea" label="DEA number" error={errors.deaNumber?.message} testId="deaNumber">
            {(control) => (
              <Input {...control} maxLength={9} placeholder="AB1234563" className="max-w-40 uppercase" {...register('deaNumber')} disabled={grant.isPending} />
            )}
          </FormField>
        </div>
        {form.formError && <FormErrorAlert error={form.formError} testId="prescriber-error" />}
        <FormDialogFooter
          saving={grant.isPending}
          blocked={Boolean(stale)}
          submitLabel={prescriber && !prescriber.revokedAt ? 'Save' : 'Grant Rights'}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
