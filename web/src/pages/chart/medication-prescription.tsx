import { RefreshCw } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { prescriptionHref } from '#domain/prescription-links';
import type { TPrescription } from '#domain/prescriptions';
import { usePrescriptions } from '../../api/prescriptions/prescriptions.ts';
import { useReplacePrescription } from '../../api/prescriptions/prescription-writes.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * Her prescriptions in force, by the medication-list entry each put there (signing adds one):
 * what lets the list renew or discontinue a prescribed medication where it shows. Empty for a
 * role that does not read prescriptions.
 */
export function usePrescriptionsInForce(patientId: string, user: TCurrentUser): Map<string, TPrescription> {
  const readable = can(user, 'prescriptions.read');
  const inForce = usePrescriptions({ view: 'active', patientId }, { enabled: readable });
  const byEntry = new Map<string, TPrescription>();
  for (const rx of inForce.data?.pages.flatMap((page) => page.items) ?? []) if (rx.medicationEntryId) byEntry.set(rx.medicationEntryId, rx);
  return byEntry;
}

/**
 * Under a prescribed medication: its prescription (a link to it), 'Renew' (a new draft of the
 * same course, opened on the Prescriptions screen to check and sign) and 'Discontinue' (with its
 * reason, here).
 */
export function MedicationPrescription({ rx, user, onDiscontinue }: { rx: TPrescription; user: TCurrentUser; onDiscontinue: (rx: TPrescription) => void }) {
  const [, navigate] = useLocation();
  const replace = useReplacePrescription();
  const renew = () =>
    replace.mutate(
      { id: rx.id, kind: 'renewal' },
      {
        onSuccess: (made) => {
          toast({ title: 'Renewal drafted', description: `${made.number}: check it, then sign it`, variant: 'success' });
          navigate(prescriptionHref(made.id));
        },
        onError: (error) => reportMutationError(error, 'Could not renew the prescription', { withReason: true }),
      },
    );
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="medication-prescription">
      <Link href={prescriptionHref(rx.id)} className="font-medium text-blue-800 hover:underline">
        Prescription {rx.number}
      </Link>
      {can(user, 'prescriptions.prepare') && (
        <Button size="sm" variant="outline" onClick={renew} disabled={replace.isPending}>
          {replace.isPending ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
          Renew
          <span className="sr-only"> {rx.medicationName}</span>
        </Button>
      )}
      {can(user, 'prescriptions.manage') && (
        <Button size="sm" variant="outline" onClick={() => onDiscontinue(rx)}>
          Discontinue
          <span className="sr-only"> {rx.medicationName}</span>
        </Button>
      )}
    </div>
  );
}
