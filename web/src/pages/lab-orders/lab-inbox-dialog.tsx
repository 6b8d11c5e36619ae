import { Ban, FileInput, TriangleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { TLabInboxDetail } from '#domain/lab-interfaces';
import { formatDayTime } from '#domain/clinic-time';
import { useLabInboxMessage } from '../../api/labs/lab-inbox-message.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { LabInboxFileForm } from './lab-inbox-file-form.tsx';
import { LabInboxRejectForm } from './lab-inbox-reject-form.tsx';
import { InboxReports, LabInboxStatusBadge, messagePatientWords, problemLabel } from './lab-inbox-row.tsx';
import { LabInboxSegments } from './lab-inbox-segments.tsx';

type TAction = 'file' | 'reject' | null;

/**
 * One of the lab's messages (issue 54): why it waits, the patient and reports as it gives them,
 * the message itself as segments and fields, and for a waiting one the two ways out: file each
 * report to an order of the patient's (after comparing her with the message), or reject it with
 * a reason. A message already handled says by whom, and links to the orders it went to.
 */
export function LabInboxDialog({
  messageId,
  timeZone,
  onClose,
  onOpenOrder,
}: {
  messageId: string;
  timeZone: string;
  onClose: () => void;
  onOpenOrder: (orderId: string) => void;
}) {
  const { data: message, isPending, isError, error, refetch } = useLabInboxMessage(messageId);
  return (
    <FormDialog
      onClose={onClose}
      className="max-w-3xl"
      testId="lab-inbox-dialog"
      title={message ? `Message from ${message.sender}` : 'Message from the lab'}
      description={
        message
          ? `Received ${formatDayTime(message.receivedAt, timeZone)} · ${message.messageType} · control ID ${message.controlId}`
          : isPending
            ? 'Loading the message…'
            : 'The message could not be read.'
      }
      headerClassName="pr-6 [&_p]:break-words"
    >
      {isPending ? (
        <DialogSkeleton />
      ) : isError ? (
        <ErrorState title="Could not load this message" error={error} onRetry={() => void refetch()} />
      ) : (
        <MessageBody message={message} timeZone={timeZone} onClose={onClose} onOpenOrder={onOpenOrder} />
      )}
    </FormDialog>
  );
}

function DialogSkeleton() {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading the message
      </p>
      <div className="space-y-3" aria-hidden="true">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    </div>
  );
}

function MessageBody({
  message,
  timeZone,
  onClose,
  onOpenOrder,
}: {
  message: TLabInboxDetail;
  timeZone: string;
  onClose: () => void;
  onOpenOrder: (orderId: string) => void;
}) {
  const [action, setAction] = useState<TAction>(null);
  const waiting = message.status === 'unmatched';
  return (
    <div className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <LabInboxStatusBadge status={message.status} />
        <p className="min-w-0 font-semibold break-words text-slate-900" data-testid="lab-inbox-message-patient">
          {messagePatientWords(message)}
        </p>
      </div>
      {message.problem && (
        <div
          data-testid="lab-inbox-problem"
          className={cn(
            'flex items-start gap-2 rounded-md border p-3 text-sm break-words',
            waiting ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-slate-200 bg-slate-50 text-slate-800',
          )}
        >
          {waiting && <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />}
          <p className="min-w-0">
            <span className="font-semibold">{problemLabel(message.status)}:</span> {message.problem}
          </p>
        </div>
      )}
      <InboxReports item={message} />
      <LabInboxSegments message={message} />
      {waiting ? (
        <WaitingActions message={message} action={action} timeZone={timeZone} onAction={setAction} onDone={onClose} />
      ) : (
        <Handled message={message} timeZone={timeZone} onOpenOrder={onOpenOrder} />
      )}
    </div>
  );
}

function WaitingActions({
  message,
  action,
  timeZone,
  onAction,
  onDone,
}: {
  message: TLabInboxDetail;
  action: TAction;
  timeZone: string;
  onAction: (action: TAction) => void;
  onDone: () => void;
}) {
  if (action === 'file') {
    return (
      <Section title="File the results">
        <LabInboxFileForm message={message} timeZone={timeZone} onDone={onDone} onCancel={() => onAction(null)} />
      </Section>
    );
  }
  if (action === 'reject') {
    return (
      <Section title="Reject the message">
        <LabInboxRejectForm message={message} onDone={onDone} onCancel={() => onAction(null)} />
      </Section>
    );
  }
  return (
    <div className="flex flex-col gap-2 border-t pt-4 sm:flex-row sm:justify-end">
      <Button variant="outline" onClick={() => onAction('reject')}>
        <Ban aria-hidden="true" />
        Reject…
      </Button>
      <Button onClick={() => onAction('file')}>
        <FileInput aria-hidden="true" />
        File Results…
      </Button>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3 border-t pt-4">
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

/** What became of a message no longer waiting: who filed or rejected it, and the orders its reports went to. */
function Handled({ message, timeZone, onOpenOrder }: { message: TLabInboxDetail; timeZone: string; onOpenOrder: (orderId: string) => void }) {
  const filedTo = message.groups.filter((group) => group.orderId !== null);
  return (
    <div className="space-y-2 border-t pt-4 text-sm text-slate-700" data-testid="lab-inbox-handled">
      {message.resolvedAt && (
        <p>
          {message.status === 'rejected' ? 'Rejected' : 'Filed'}
          {message.resolvedByName ? ` by ${message.resolvedByName}` : ''}, {formatDayTime(message.resolvedAt, timeZone)}.
        </p>
      )}
      {filedTo.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {filedTo.map((group, i) => (
            <Button key={i} variant="outline" size="sm" onClick={() => onOpenOrder(group.orderId!)}>
              Open the order: {group.testName}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
