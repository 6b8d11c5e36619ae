import { lazy, Suspense } from 'react';
import type { TPatient } from '#domain/patients';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { fullName } from '../../lib/patient-format.ts';

// The form (its form library, validation and date helpers) loads when the dialog first opens:
// most visits to the screen only read the list.
const PatientForm = lazy(async () => ({ default: (await import('./patient-form.tsx')).PatientForm }));

/** What the dialog holds: nothing (closed), a new patient, or the patient being edited. */
export type TPatientDialogState = { mode: 'create' } | { mode: 'edit'; patient: TPatient } | null;

export function PatientFormDialog({
  state,
  canDeactivate,
  showChartLink,
  onClose,
}: {
  state: TPatientDialogState;
  canDeactivate: boolean;
  showChartLink: boolean;
  onClose: () => void;
}) {
  const patient = state?.mode === 'edit' ? state.patient : null;
  return (
    <FormDialog
      open={state !== null}
      onClose={onClose}
      className="max-w-2xl"
      testId="patient-dialog"
      title={patient ? 'Edit Patient' : 'Add New Patient'}
      description={<>{patient ? `Editing ${fullName(patient)}. ` : ''}Fields marked * are required.</>}
    >
      {state && (
        <Suspense fallback={<LoadingBlock />}>
          <PatientForm key={patient?.id ?? 'new'} patient={patient} canDeactivate={canDeactivate} showChartLink={showChartLink} onDone={onClose} />
        </Suspense>
      )}
    </FormDialog>
  );
}
