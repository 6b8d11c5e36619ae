import { RotateCw } from 'lucide-react';
import { LAB_ORDER_CONTROL_LABELS, type TLabSend } from '#domain/lab-interfaces';
import { useLabSends } from '../../api/labs/lab-sends.ts';
import { useRetryLabSend } from '../../api/labs/lab-send-retry.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

const triesLabel = (count: number) => (count === 1 ? '1 try' : `${count} tries`);

/**
 * The sends a lab refused, or could not be reached for after the last try: an order (or its
 * cancellation) that never reached its lab, which someone must see. 'Send again' queues it now,
 * its tries counted afresh.
 */
export function FailedLabSends() {
  const sends = useLabSends('failed');
  return (
    <section aria-labelledby="lab-sends-failed-title" className="space-y-3">
      <div>
        <h2 id="lab-sends-failed-title" className="text-lg font-semibold text-slate-900">
          Sends that failed
        </h2>
        <p className="max-w-2xl text-sm text-slate-600">
          Orders, or their cancellations, that a lab refused or could not be reached for after the last try. Fix the cause, then send again.
        </p>
      </div>
      {sends.isPending ? (
        <ListSkeleton rows={2} label="Loading the failed sends" testId="lab-send-skeleton" row={<Skeleton className="h-5 w-2/3" />} />
      ) : sends.isError ? (
        <ErrorState title="Could not load the failed sends" error={sends.error} onRetry={() => void sends.refetch()} />
      ) : sends.data.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600" data-testid="lab-sends-empty">
          No failed sends: every order went to its lab, or is still being tried.
        </p>
      ) : (
        <ul className="divide-y rounded-lg border bg-white" aria-label="Sends that failed">
          {sends.data.map((send) => (
            <FailedSendRow key={send.id} send={send} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FailedSendRow({ send }: { send: TLabSend }) {
  const retry = useRetryLabSend();
  const sendAgain = () =>
    retry.mutate(send.id, {
      onSuccess: () => toast({ title: 'Sending again', description: `Order ${send.placerNumber} goes to ${send.labName} in a moment.`, variant: 'success' }),
      onError: (error) => void reportMutationError(error, 'Could not send it again', { withReason: true }),
    });
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="lab-send-failed" data-send-id={send.id}>
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-baseline gap-x-2 text-slate-900">
          {send.orderControl === 'CA' && <span className="font-semibold text-slate-900">{LAB_ORDER_CONTROL_LABELS.CA} of</span>}
          <span className="font-mono font-semibold">{send.placerNumber}</span>
          <span className="min-w-0 break-words">{send.orderName}</span>
          <span className="text-slate-600">
            to {send.labName} · {triesLabel(send.attempts)}
          </span>
        </p>
        <p className="mt-0.5 break-words text-red-800" data-testid="lab-send-error">
          {send.lastError ?? 'No reason given'}
        </p>
      </div>
      <Button variant="outline" size="sm" className="self-start" onClick={sendAgain} disabled={retry.isPending}>
        {retry.isPending ? <Spinner className="size-4" /> : <RotateCw aria-hidden="true" />}
        Send again<span className="sr-only"> order {send.placerNumber}</span>
      </Button>
    </li>
  );
}
