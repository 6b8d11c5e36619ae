import { UserX } from 'lucide-react';
import { useState } from 'react';
import type { TPatient } from '#domain/patients';
import { Button } from '../../components/ui/button.tsx';
import { isStaleEdit, useUpdatePatient } from '../../api/patients/update-patient.ts';
import { describeApiError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { fullName } from '../../lib/patient-format.ts';

/**
 * Admin and scheduler only (the server refuses others): patients are never deleted, they are set
 * inactive and leave the list. A second, explicit click confirms.
 */
export function DeactivatePatient({
  patient,
  disabled,
  onDone,
  onStale,
}: {
  patient: TPatient;
  disabled: boolean;
  onDone: () => void;
  onStale: (message: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const deactivate = useUpdatePatient();
  const name = fullName(patient);

  const confirm = () =>
    deactivate.mutate(
      { id: patient.id, changes: { isActive: false, updatedAt: patient.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: 'Patient deactivated', description: `${name} no longer appears in the patient list.`, variant: 'success' });
          onDone();
        },
        onError: (error) => {
          setConfirming(false);
          if (isStaleEdit(error)) onStale(describeApiError(error).message);
          reportMutationError(error, 'Failed to update patient');
        },
      },
    );

  return (
    <div data-testid="deactivate-patient" className="rounded-md border border-red-200 p-3 text-sm">
      {confirming ? (
        <div role="group" aria-label="Confirm deactivation" className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <p className="flex-1 text-red-900">Deactivate {name}? They leave the patient list; the record and its history are kept.</p>
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={deactivate.isPending}>
              Keep active
            </Button>
            <Button size="sm" variant="destructive" onClick={confirm} disabled={deactivate.isPending}>
              {deactivate.isPending ? 'Deactivating...' : 'Deactivate'}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <p className="flex-1 text-slate-600">Patients are never deleted. An inactive patient leaves the list.</p>
          <Button size="sm" variant="outline" className="border-red-200 text-red-700 hover:bg-red-50" onClick={() => setConfirming(true)} disabled={disabled}>
            <UserX aria-hidden="true" />
            Deactivate patient
          </Button>
        </div>
      )}
    </div>
  );
}
