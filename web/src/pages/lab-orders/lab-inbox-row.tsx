import { CalendarClock, FlaskConical, Inbox, TriangleAlert, UserRound } from 'lucide-react';
import { useId } from 'react';
import { LAB_INBOX_STATUS_LABELS, LAB_RESULT_SOURCE_LABELS, type TLabInboxItem, type TLabInboxStatus } from '#domain/lab-interfaces';
import { formatDayTime } from '#domain/clinic-time';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';

const STATUS_STYLES: Record<TLabInboxStatus, string> = {
  unmatched: 'border-amber-400 bg-amber-100 text-amber-950',
  filed: 'border-transparent bg-teal-100 text-teal-900',
  matched: 'border-transparent bg-teal-100 text-teal-900',
  rejected: 'border-transparent bg-slate-200 text-slate-800',
  refused: 'border-transparent bg-red-100 text-red-900',
};

export function LabInboxStatusBadge({ status }: { status: TLabInboxStatus }) {
  return (
    <Badge data-testid="lab-inbox-status" data-status={status} className={STATUS_STYLES[status]}>
      {LAB_INBOX_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * The patient in the message's own words, never a record's: a waiting message may name the wrong
 * person, so what it says is labelled as its words ('Message says: Olivia Hart, born 1980-05-17').
 */
export function messagePatientWords(item: Pick<TLabInboxItem, 'messagePatient' | 'messageBirthDate'>): string {
  const name = item.messagePatient ?? 'no patient name';
  const born = item.messageBirthDate ? `born ${item.messageBirthDate}` : 'no birth date';
  return `Message says: ${name}, ${born}`;
}

/** Why a message waits, or what became of it, with the word that fits its status. */
export function problemLabel(status: TLabInboxStatus): string {
  if (status === 'unmatched') return 'Why it waits';
  if (status === 'rejected') return 'Rejected';
  if (status === 'refused') return 'Refused';
  return 'Note';
}

/** Each report of the message: its test and the placer number the lab sent (the number that failed to match, often). */
export function InboxReports({ item }: { item: Pick<TLabInboxItem, 'groups'> }) {
  if (item.groups.length === 0) return <p className="text-sm text-slate-600">No reports could be read from this message.</p>;
  return (
    <ul className="space-y-1" data-testid="lab-inbox-reports">
      {item.groups.map((group, i) => (
        <li key={i} className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm" data-testid="lab-inbox-report">
          <FlaskConical className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
          <span className="font-medium break-words text-slate-900">{group.testName || 'Unnamed test'}</span>
          <span className="text-slate-600">
            {group.placerNumber ? `placer no. ${group.placerNumber}` : 'no placer number'}
            {` · ${group.observations} ${group.observations === 1 ? 'result' : 'results'}`}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One message of the lab's in the queue: when it came and from whom, the patient as the message
 * names her, its reports, and the problem that holds it for a person. 'Open' shows it whole.
 */
export function LabInboxRow({ item, timeZone, onOpen }: { item: TLabInboxItem; timeZone: string; onOpen: (item: TLabInboxItem) => void }) {
  const headingId = useId();
  const waiting = item.status === 'unmatched';
  return (
    <li data-testid="lab-inbox-row" data-message-id={item.id} data-status={item.status}>
      <article
        aria-labelledby={headingId}
        className={cn('flex flex-col gap-3 rounded-lg border bg-white p-3 sm:p-4 lg:flex-row lg:items-center', waiting && 'border-amber-300')}
      >
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={headingId} className="min-w-0 font-semibold break-words text-slate-900" data-testid="lab-inbox-patient">
              {messagePatientWords(item)}
            </h3>
            <LabInboxStatusBadge status={item.status} />
          </div>
          <InboxReports item={item} />
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
            <span className="flex items-center gap-1" data-testid="lab-inbox-received">
              <CalendarClock className="size-3.5 shrink-0" aria-hidden="true" />
              Received {formatDayTime(item.receivedAt, timeZone)}
            </span>
            <span className="flex min-w-0 items-center gap-1 break-words" data-testid="lab-inbox-sender">
              <Inbox className="size-3.5 shrink-0" aria-hidden="true" />
              from {item.sender} by {LAB_RESULT_SOURCE_LABELS[item.channel]}
            </span>
            {item.resolvedByName && item.resolvedAt && (
              <span className="flex items-center gap-1">
                <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
                {item.status === 'rejected' ? 'Rejected' : 'Filed'} by {item.resolvedByName}, {formatDayTime(item.resolvedAt, timeZone)}
              </span>
            )}
          </p>
          {item.problem && (
            <p
              className={cn('flex items-start gap-1.5 text-sm break-words', waiting ? 'font-medium text-amber-950' : 'text-slate-700')}
              data-testid="lab-inbox-problem"
            >
              {waiting && <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />}
              <span className="min-w-0">
                <span className="font-semibold">{problemLabel(item.status)}:</span> {item.problem}
              </span>
            </p>
          )}
        </div>
        <div className="lg:shrink-0">
          <Button size="sm" variant="outline" onClick={() => onOpen(item)}>
            Open
            <span className="sr-only">: the message received {formatDayTime(item.receivedAt, timeZone)}</span>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** Rows standing in while the queue loads. */
export function LabInboxRowsSkeleton({ label }: { label: string }) {
  return (
    <ListSkeleton
      rows={3}
      label={label}
      testId="lab-inbox-skeleton"
      row={
        <>
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-64 max-w-full" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
            <Skeleton className="h-4 w-2/3" />
          </div>
          <Skeleton className="hidden h-9 w-16 sm:block" />
        </>
      }
    />
  );
}
