import { lazy, Suspense } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TPrescription } from '#domain/prescriptions';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

// The form (the formulary picker, the sig, the checks) loads when the dialog first opens.
const PrescriptionForm = lazy(async () => ({ default: (await import('./prescription-form.tsx')).PrescriptionForm }));

/** 'New Prescription', or a draft rewritten: the dialog holding the prescription form. */
export function PrescriptionDialog({
  user,
  draft,
  patientId,
  appointmentId,
  onClose,
  onSaved,
}: {
  user: TCurrentUser;
  draft: TPrescription | null;
  /** The screen's patient, chosen already. */
  patientId: string | undefined;
  /** The visit it is written at, when written from one. */
  appointmentId?: string | undefined;
  onClose: () => void;
  onSaved: (rx: TPrescription) => void;
}) {
  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="rx-dialog"
      title={draft ? `Edit ${draft.number}` : 'New Prescription'}
      description="Saved as a draft for the prescriber to sign; the checks run again when it is signed. Fields marked * are required."
    >
      <Suspense fallback={<LoadingBlock />}>
        <PrescriptionForm user={user} draft={draft} presetPatientId={patientId} appointmentId={appointmentId} onCancel={onClose} onSaved={onSaved} />
      </Suspense>
    </FormDialog>
  );
}
