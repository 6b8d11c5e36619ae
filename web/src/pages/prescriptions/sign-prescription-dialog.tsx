import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { PRESCRIPTION_LIMITS, type TPrescription, type TSignPrescription } from '#domain/prescriptions';
import type { TFactorProof } from '#domain/second-factor';
import { usePrescriptionChecks, useSignPrescription } from '../../api/prescriptions/prescription-writes.ts';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { ProofDialog } from '../../components/second-factor/proof-dialog.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { PrescriptionAlerts } from './prescription-alerts.tsx';
import { CHECK_LABELS } from './prescription-labels.ts';

interface TSignValues {
  /** The reason to sign over each high alert, in the order they are listed. */
  reasons: string[];
}

/**
 * Signing a draft (issue 52): the checks run again on her chart as it is now and show here; each
 * high alert needs the reason she signs over it (kept with the prescription and in the audit
 * trail); a controlled substance then asks for a fresh second factor. The server checks it all
 * again: a new alert that appeared meanwhile is named, and nothing is signed.
 */
export function SignPrescriptionDialog({ rx, onClose }: { rx: TPrescription; onClose: () => void }) {
  const checks = usePrescriptionChecks({ patientId: rx.patientId, formularyId: rx.formularyId, sig: rx.sig, excludeId: rx.id });
  const sign = useSignPrescription();
  const [proving, setProving] = useState<TSignPrescription['overrides'] | null>(null);
  const high = (checks.data ?? []).filter((a) => a.severity === 'high');
  const form = useAppForm<TSignValues>({
    defaultValues: { reasons: [] },
    check: (values) =>
      Object.fromEntries(high.map((_, i) => [`reasons.${i}`, values.reasons[i]?.trim() ? undefined : 'Give the reason you sign over this alert'])) as Partial<
        Record<Path<TSignValues>, string>
      >,
    fields: ['reasons'],
    serverPaths: { overrides: 'reasons' },
  });

  const send = (overrides: TSignPrescription['overrides'], proof?: TFactorProof, proofFailed?: (error: unknown) => void) =>
    sign.mutate(
      { id: rx.id, body: { updatedAt: rx.updatedAt, overrides, ...(proof ? { proof } : {}) } },
      {
        onSuccess: (signed) => {
          toast({ title: 'Prescription signed', description: `${signed.number}: on her medication list. Print it to hand it over.`, variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const code = apiErrorCode(error);
          // A code refused: the proof dialog stays open and says so.
          if (proofFailed && (code === 'signIn.badCode' || code === 'signIn.throttled' || code === 'secondFactor.noneEnrolled')) return proofFailed(error);
          setProving(null);
          form.failed(error, 'Could not sign the prescription', { withReason: true });
          // New alerts (a 400 naming them) or someone else's change: what shows is read again.
          void checks.refetch();
        },
      },
    );

  const onSubmit = form.onSubmit((values) => {
    const overrides = high.map((alert, i) => ({ check: alert.check, about: alert.about, reason: values.reasons[i]!.trim() }));
    if (rx.schedule) setProving(overrides);
    else send(overrides);
  });

  return (
    <>
      <FormDialog
        open={proving === null}
        onClose={onClose}
        className="max-w-2xl"
        testId="rx-sign-dialog"
        title={`Sign ${rx.number}`}
        description={`${rx.medicationName} for ${rx.patientName}. ${rx.sigText}`}
      >
        <form noValidate className="space-y-4" onSubmit={onSubmit}>
          <PatientAllergyBanner patientId={rx.patientId} />
          {checks.isPending ? (
            <LoadingBlock />
          ) : checks.isError ? (
            <p role="alert" className="text-sm text-red-800">
              The checks could not be run just now. Close and try again: nothing is signed unchecked.
            </p>
          ) : (
            <PrescriptionAlerts alerts={checks.data} checking={checks.isFetching} />
          )}
          {high.map((alert, i) => (
            <FormField
              key={`${alert.check}-${alert.about ?? ''}`}
              id={`rx-override-${i}`}
              label={`Reason to sign over the ${CHECK_LABELS[alert.check].toLowerCase()} alert${alert.about ? ` (${alert.about})` : ''}`}
              required
              error={form.formState.errors.reasons?.[i]?.message}
              testId={`override-${i}`}
            >
              {(control) => (
                <Input
                  {...control}
                  maxLength={PRESCRIPTION_LIMITS.overrideReason}
                  placeholder="e.g. Tolerated it in 2024 without reaction"
                  {...form.register(`reasons.${i}`)}
                  disabled={sign.isPending}
                />
              )}
            </FormField>
          ))}
          {rx.schedule && (
            <p className="rounded-md border border-violet-300 bg-violet-50 p-2.5 text-sm text-violet-950">
              A controlled substance (schedule {rx.schedule}): signing asks you to confirm it is you with your second factor.
            </p>
          )}
          {form.formError && <FormErrorAlert error={form.formError} testId="rx-sign-error" />}
          <FormDialogFooter
            saving={sign.isPending}
            blocked={!checks.isSuccess}
            submitLabel={high.length === 0 ? 'Sign' : high.length === 1 ? 'Sign Over the Alert' : 'Sign Over the Alerts'}
            onCancel={onClose}
          />
        </form>
      </FormDialog>
      {proving !== null && (
        <ProofDialog
          title="Confirm it is you"
          description={`Signing ${rx.number} (${rx.medicationName}, schedule ${rx.schedule}) needs a fresh second factor.`}
          confirmLabel="Sign"
          pending={sign.isPending}
          onClose={() => setProving(null)}
          testId="rx-sign-proof"
          onProof={(proof, failed) => send(proving, proof, failed)}
        />
      )}
    </>
  );
}
