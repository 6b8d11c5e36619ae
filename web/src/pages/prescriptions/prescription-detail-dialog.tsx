import { Printer, RefreshCw, Replace } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { formatDayTime } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import type { TPrescription, TReplaceKind } from '#domain/prescriptions';
import { unitWords } from '#domain/sig';
import { movesFrom, PRESCRIPTION_WORKFLOW } from '#domain/workflows';
import { useHoldsRights, usePrescription } from '../../api/prescriptions/prescriptions.ts';
import { usePrintPrescription, useReplacePrescription } from '../../api/prescriptions/prescription-writes.ts';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import type { TPrescriptionEnd } from '../../components/prescriptions/end-prescription-dialog.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { PrescriptionAlerts } from './prescription-alerts.tsx';
import { PrescriptionStatusBadge, ScheduleBadge } from './prescription-badges.tsx';

/** What the dialog hands back to the screen: a form or question to open in its place. */
export type TPrescriptionPanel =
  { kind: 'edit'; rx: TPrescription } | { kind: 'sign'; rx: TPrescription } | { kind: 'end'; rx: TPrescription; to: TPrescriptionEnd };

const inForce = (rx: TPrescription) => rx.status === 'signed' || rx.status === 'active';

/** The facts of a prescription as label and text. */
function factsOf(rx: TPrescription, timeZone: string): [string, ReactNode][] {
  const at = (when: string, who: string | null) => `${formatDayTime(when, timeZone)}${who ? ` by ${who}` : ''}`;
  const facts: [string, ReactNode][] = [
    ['Directions', rx.sigText],
    ['Quantity', `${rx.quantity} ${unitWords(rx.quantity, rx.quantityUnit)}`],
    ['Refills', rx.refills === 0 ? 'None' : String(rx.refills)],
  ];
  if (rx.daysSupply !== null) facts.push(["Days' supply", String(rx.daysSupply)]);
  facts.push(['Substitution', rx.substitutionAllowed ? 'Generic substitution allowed' : 'Dispense as written']);
  if (rx.diagnosis) facts.push(['For', `${rx.diagnosis.name}${rx.diagnosis.code ? ` (${rx.diagnosis.code})` : ''}`]);
  if (rx.pharmacyNote) facts.push(['Note to the pharmacy', rx.pharmacyNote]);
  facts.push(['Written', at(rx.createdAt, rx.preparedByName)]);
  if (rx.signedAt) facts.push(['Signed', at(rx.signedAt, rx.prescriberName)]);
  else if (rx.status === 'draft') facts.push(['To be signed by', rx.prescriberName ?? 'Not named']);
  if (rx.sentAt) facts.push(['Printed', formatDayTime(rx.sentAt, timeZone)]);
  if (rx.endedAt) facts.push(['Ended', `${formatDayTime(rx.endedAt, timeZone)}${rx.statusReason ? `: ${rx.statusReason}` : ''}`]);
  if (rx.replacesId) facts.push([rx.replaceKind === 'renewal' ? 'Renews' : 'Replaces', 'An earlier prescription of this course']);
  return facts;
}

/**
 * One prescription (issue 52): its facts, the checks' alerts (with the reasons a high one was
 * signed over), and the steps this user may take from where it stands: sign, edit or discard a
 * draft; print, renew, change, complete, discontinue or mark in error one in force.
 */
export function PrescriptionDetailDialog({
  id,
  user,
  timeZone,
  onClose,
  onPanel,
  onOpenOther,
}: {
  id: string;
  user: TCurrentUser;
  timeZone: string;
  onClose: () => void;
  onPanel: (panel: TPrescriptionPanel) => void;
  /** A renewal or change made here: the screen opens it (a draft to check and sign). */
  onOpenOther: (rx: TPrescription) => void;
}) {
  const { data: rx, isPending, isError, error, refetch } = usePrescription(id);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl" data-testid="rx-detail">
        <DialogHeader className="pr-6">
          <DialogTitle>{rx ? `${rx.number}: ${rx.medicationName}` : 'Prescription'}</DialogTitle>
          <DialogDescription>
            {rx ? `For ${rx.patientName}` : isPending ? 'Loading the prescription…' : 'The prescription could not be read.'}
          </DialogDescription>
        </DialogHeader>
        {isPending ? (
          <LoadingBlock />
        ) : isError ? (
          <ErrorState title="Could not load the prescription" error={error} onRetry={() => void refetch()} />
        ) : (
          <div className="space-y-4">
            <PatientAllergyBanner patientId={rx.patientId} />
            <div className="flex flex-wrap items-center gap-2">
              <PrescriptionStatusBadge status={rx.status} />
              {rx.schedule && <ScheduleBadge schedule={rx.schedule} />}
            </div>
            <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
              {factsOf(rx, timeZone).map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="break-words text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <section aria-labelledby="rx-detail-checks" className="space-y-2">
              <h3 id="rx-detail-checks" className="text-sm font-semibold">
                {rx.signedAt ? 'Checks when it was signed' : 'Checks when it was last written'}
              </h3>
              <PrescriptionAlerts alerts={rx.alerts} />
            </section>
            <PrescriptionActions rx={rx} user={user} onPanel={onPanel} onOpenOther={onOpenOther} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function PrescriptionActions({
  rx,
  user,
  onPanel,
  onOpenOther,
}: {
  rx: TPrescription;
  user: TCurrentUser;
  onPanel: (panel: TPrescriptionPanel) => void;
  onOpenOther: (rx: TPrescription) => void;
}) {
  const print = usePrintPrescription();
  const replace = useReplacePrescription();
  const busy = print.isPending || replace.isPending;
  const ends = movesFrom(PRESCRIPTION_WORKFLOW, user, rx.status, rx).filter((move) => !move.via);
  const mayEdit = rx.status === 'draft' && ends.some((move) => move.to === 'cancelled');
  const maySign = useHoldsRights(user.id, can(user, 'prescriptions.sign')) === true && rx.status === 'draft';
  const mayPrint = inForce(rx) && can(user, 'prescriptions.manage');
  const mayReplace = inForce(rx) && can(user, 'prescriptions.prepare');
  const renew = (kind: TReplaceKind) =>
    replace.mutate(
      { id: rx.id, kind },
      {
        onSuccess: (made) => {
          toast({
            title: kind === 'renewal' ? 'Renewal drafted' : 'Change drafted',
            description: `${made.number}: check it, then sign it`,
            variant: 'success',
          });
          onOpenOther(made);
        },
        onError: (error) =>
          reportMutationError(error, kind === 'renewal' ? 'Could not renew the prescription' : 'Could not change the prescription', { withReason: true }),
      },
    );
  if (!maySign && !mayEdit && !mayPrint && !mayReplace && ends.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-2 border-t pt-4" data-testid="rx-actions">
      {maySign && <Button onClick={() => onPanel({ kind: 'sign', rx })}>Sign</Button>}
      {mayEdit && (
        <Button variant="outline" onClick={() => onPanel({ kind: 'edit', rx })}>
          Edit Draft
        </Button>
      )}
      {mayPrint && (
        <Button
          variant={rx.status === 'signed' ? 'default' : 'outline'}
          disabled={busy}
          onClick={() =>
            print.mutate(
              { id: rx.id, number: rx.number },
              { onError: (error) => reportMutationError(error, 'Could not print the prescription', { withReason: true }) },
            )
          }
        >
          {print.isPending ? <Spinner className="size-4" /> : <Printer aria-hidden="true" />}
          {rx.status === 'signed' ? 'Print' : 'Print a Copy'}
        </Button>
      )}
      {mayReplace && (
        <>
          <Button variant="outline" disabled={busy} onClick={() => renew('renewal')}>
            <RefreshCw aria-hidden="true" />
            Renew
          </Button>
          <Button variant="outline" disabled={busy} onClick={() => renew('change')}>
            <Replace aria-hidden="true" />
            Change
          </Button>
        </>
      )}
      {ends.map((move) => (
        <Button
          key={move.to}
          variant={move.to === 'discontinued' || move.to === 'entered_in_error' ? 'destructive' : 'outline'}
          disabled={busy}
          onClick={() => onPanel({ kind: 'end', rx, to: move.to as TPrescriptionEnd })}
        >
          {move.label}
        </Button>
      ))}
    </div>
  );
}
