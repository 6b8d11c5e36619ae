import { lazy, Suspense } from 'react';
import type { TLabOrderDetail } from '#domain/labs';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

// The form (with the patient picker and the catalogue) loads when the dialog first opens.
const NewLabOrderForm = lazy(async () => ({ default: (await import('./new-lab-order-form.tsx')).NewLabOrderForm }));

/** 'New Lab Order' (labs.order): the dialog holding the order form. */
export function NewLabOrderDialog({
  open,
  patientId,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** The screen's patient, chosen already. */
  patientId: string | undefined;
  onClose: () => void;
  onCreated: (order: TLabOrderDetail) => void;
}) {
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      className="max-w-xl"
      testId="new-lab-order-dialog"
      title="New Lab Order"
      description="You are the ordering provider. Fields marked * are required."
    >
      {open && (
        <Suspense fallback={<LoadingBlock />}>
          <NewLabOrderForm presetPatientId={patientId} onCancel={onClose} onCreated={onCreated} />
        </Suspense>
      )}
    </FormDialog>
  );
}
