import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import { ZFileLabInbox, type TFileLabInbox, type TLabInboxDetail } from '#domain/lab-interfaces';
import { useFileLabInboxMessage } from '../../api/labs/lab-inbox-file.ts';
import { reloadLabInboxMessage } from '../../api/labs/lab-inbox-message.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import type { TChosenPatient } from '../../components/patient-picker.tsx';
import { FormPatientField } from '../../components/preset-patient-field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { fullName } from '../../lib/patient-format.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { LabInboxPatientCheck } from './lab-inbox-patient-check.tsx';
import { LabInboxReportTargets, NEW_ORDER, type TFileValues } from './lab-inbox-report-targets.tsx';

/** Where each report goes, as the server takes it (domain ZFileLabInbox): one patient's orders, or new ones for her. */
const ZFileForm = z
  .object({
    patient: z.custom<TChosenPatient | null>().refine((chosen) => chosen !== null, 'Choose the patient these results are for'),
    targets: z.array(z.string().min(1, 'Choose an order, or a new order')),
  })
  .transform(({ patient, targets }) => ({ groups: targets.map((target) => (target === NEW_ORDER ? { patientId: patient!.id } : { orderId: target })) }))
  .pipe(ZFileLabInbox);

/**
 * 'File': the patient the results are for (the record the message's identifier named, when it
 * named one, else found with the shared picker), her name and birth date beside the message's,
 * and for each report an open order of hers or a new one. The server's refusal of a report
 * shows under that report's choice.
 */
export function LabInboxFileForm({
  message,
  timeZone,
  onDone,
  onCancel,
}: {
  message: TLabInboxDetail;
  timeZone: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const file = useFileLabInboxMessage();
  // The version the person compared: a change by someone else since is a 409 to reload.
  const [version, setVersion] = useState(message.updatedAt);
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const count = message.groups.length;
  const form = useAppForm<TFileValues, TFileLabInbox>({
    schema: ZFileForm as unknown as ZodType<TFileLabInbox, TFileValues>,
    defaultValues: { patient: null, targets: message.groups.map(() => '') },
    fields: ['patient', ...message.groups.map((_, i) => `targets.${i}` as Path<TFileValues>)],
    serverPaths: Object.fromEntries(
      message.groups.flatMap((_, i) => [
        [`groups.${i}.orderId`, `targets.${i}`],
        [`groups.${i}.patientId`, `targets.${i}`],
      ]),
    ) as Record<string, Path<TFileValues>>,
  });
  const patient = form.watch('patient');
  const patientId = patient?.id;
  const { setValue } = form;
  // An order chosen was one of the patient's then: another patient starts the choices afresh.
  useEffect(() => {
    setValue(
      'targets',
      Array.from({ length: count }, () => ''),
    );
  }, [patientId, count, setValue]);
  const busy = file.isPending || reloading;

  const onSubmit = form.onSubmit((body) => {
    const chosen = form.getValues('patient');
    file.mutate(
      { id: message.id, body: { ...body, updatedAt: version } },
      {
        onSuccess: () => {
          const tests = message.groups.map((group) => group.testName).join(', ');
          toast({ title: 'Results filed', description: chosen ? `${tests} for ${fullName(chosen)}` : tests, variant: 'success' });
          onDone();
        },
        onError: (error) => {
          const described = form.failed(error, 'Failed to file the results', { withReason: true });
          if (described && apiErrorCode(error) === 'record.stale') setStale(described.message);
        },
      },
    );
  });

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await reloadLabInboxMessage(queryClient, message.id);
      setVersion(fresh.updatedAt);
      form.setFormError(null);
      setStale(null);
    } catch (error) {
      if (!isUnauthorizedError(error)) form.setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  return (
    <form noValidate autoComplete="off" aria-label="File the results" className="space-y-4" onSubmit={onSubmit} data-testid="lab-inbox-file-form">
      <FormPatientField form={form} id="lab-inbox-patient" presetPatientId={message.patientId ?? undefined} disabled={busy} />
      {patient && <LabInboxPatientCheck message={message} patient={patient} />}
      {patient ? (
        <LabInboxReportTargets form={form} message={message} patientId={patient.id} timeZone={timeZone} disabled={busy} />
      ) : (
        <p className="text-sm text-slate-600">Choose the patient first: her open orders are offered for each report.</p>
      )}
      {stale && <StaleBanner message={stale} reloadLabel="Reload message" reloading={reloading} onReload={() => void reload()} testId="lab-inbox-stale" />}
      {form.formError && !stale && <FormErrorAlert error={form.formError} testId="lab-inbox-file-error" />}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={file.isPending}>
          Back
        </Button>
        <Button type="submit" disabled={busy}>
          {file.isPending && <Spinner className="size-4 text-white" />}
          {file.isPending ? 'Filing…' : 'File Results'}
        </Button>
      </DialogFooter>
    </form>
  );
}
