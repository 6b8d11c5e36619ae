import { CalendarClock, Pill, UserRound } from 'lucide-react';
import { useId } from 'react';
import { formatDayTime } from '#domain/clinic-time';
import type { TPrescription } from '#domain/prescriptions';
import { unitWords } from '#domain/sig';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { HighAlertsMark, PrescriptionStatusBadge, ScheduleBadge } from './prescription-badges.tsx';

/** The moment that says most about where it stands: ended, signed, or written. */
function lastStep(rx: TPrescription, timeZone: string): string {
  if (rx.endedAt) return `Ended ${formatDayTime(rx.endedAt, timeZone)}`;
  if (rx.signedAt) return `Signed ${formatDayTime(rx.signedAt, timeZone)}${rx.prescriberName ? ` by ${rx.prescriberName}` : ''}`;
  return `Written ${formatDayTime(rx.createdAt, timeZone)}${rx.preparedByName ? ` by ${rx.preparedByName}` : ''}`;
}

/**
 * One prescription in a list: the patient, its number, status and schedule, the drug and the
 * sig as a sentence, how much, the last step and who took it, and its high alerts. 'View' opens it.
 */
export function PrescriptionRow({ rx, timeZone, onOpen }: { rx: TPrescription; timeZone: string; onOpen: (rx: TPrescription) => void }) {
  const headingId = useId();
  const high = rx.alerts.filter((a) => a.severity === 'high').length;
  return (
    <li data-testid="rx-row" data-rx-id={rx.id} data-status={rx.status}>
      <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border bg-white p-3 sm:p-4 lg:flex-row lg:items-center">
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={headingId} className="min-w-0 break-words font-semibold text-slate-900" data-testid="rx-patient">
              {rx.patientName}
            </h3>
            <span className="text-xs font-medium text-slate-600">{rx.number}</span>
            <PrescriptionStatusBadge status={rx.status} />
            {rx.schedule && <ScheduleBadge schedule={rx.schedule} />}
            <HighAlertsMark count={high} />
          </div>
          <p className="flex min-w-0 items-start gap-1.5 text-sm font-medium text-slate-800" data-testid="rx-medication">
            <Pill className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="break-words">{rx.medicationName}</span>
          </p>
          <p className="break-words text-sm text-slate-700" data-testid="rx-sig">
            {rx.sigText} Quantity {rx.quantity} {unitWords(rx.quantity, rx.quantityUnit)}
            {rx.refills > 0 ? `, ${rx.refills} ${rx.refills === 1 ? 'refill' : 'refills'}` : ', no refills'}.
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
            <span className="flex items-center gap-1">
              <CalendarClock className="size-3.5 shrink-0" aria-hidden="true" />
              {lastStep(rx, timeZone)}
            </span>
            {rx.status === 'draft' && rx.prescriberName && (
              <span className="flex items-center gap-1" data-testid="rx-to-sign-by">
                <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
                To be signed by {rx.prescriberName}
              </span>
            )}
          </p>
          {rx.statusReason && <p className="break-words text-xs text-slate-600">Reason: {rx.statusReason}</p>}
        </div>
        <div className="lg:shrink-0">
          <Button size="sm" variant="outline" onClick={() => onOpen(rx)}>
            View
            <span className="sr-only">
              : {rx.number}, {rx.medicationName} for {rx.patientName}
            </span>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** Rows standing in while a list loads, with a status line for screen readers. */
export function PrescriptionRowsSkeleton({ rows = 4, label }: { rows?: number; label: string }) {
  return (
    <ListSkeleton
      rows={rows}
      label={label}
      testId="rx-skeleton"
      row={
        <>
          <div className="flex-1 space-y-2">
            <div className="flex gap-2">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-5 w-16 rounded-full" />
            </div>
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-2/3" />
          </div>
          <Skeleton className="hidden h-9 w-16 sm:block" />
        </>
      }
    />
  );
}
