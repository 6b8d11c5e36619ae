import { UserCheck } from 'lucide-react';
import { useId, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TNoteAwaitingReview } from '#domain/notes';
import { useAssignScribe } from '../../api/notes/assign-scribe.ts';
import { useAwaitingReview } from '../../api/notes/awaiting-review.ts';
import { staffName, useAssignableStaff } from '../../api/staff/staff.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast, withDetail } from '../../lib/toast.ts';
import { formatNoteTime } from './note-format.ts';

/**
 * 'Add Scribe' (spec sections 2 and 6; issue 29): the scheduler sees the notes waiting for a
 * scribe's review, oldest first, without their text, and gives each the scribe who is to review
 * it. The scribe is told at once; the other scribes are no longer asked.
 */
export function AddScribeDialog({ user, timeZone, onClose }: { user: TCurrentUser; timeZone: string; onClose: () => void }) {
  const queue = useAwaitingReview();
  const scribes = useAssignableStaff(user, 'scribe');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        <DialogHeader className="pr-6">
          <DialogTitle>Add Scribe</DialogTitle>
          <DialogDescription>Notes waiting for review, oldest first. Give each the scribe who is to review it; she is told at once.</DialogDescription>
        </DialogHeader>
        {queue.isPending || scribes.isPending ? (
          <div role="status" className="space-y-3">
            <span className="sr-only">Loading the notes waiting for review</span>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-20 w-full" />
            ))}
          </div>
        ) : queue.isError || scribes.isError ? (
          <ErrorState
            title="Could not load the notes waiting for review"
            error={queue.error ?? scribes.error}
            onRetry={() => void (queue.isError ? queue.refetch() : scribes.refetch())}
          />
        ) : queue.data.length === 0 ? (
          <p data-testid="review-queue-empty" className="py-8 text-center text-sm text-slate-600">
            No notes are waiting for review.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="review-queue">
            {queue.data.map((note) => (
              <QueueItem key={note.id} note={note} scribes={scribes.data} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}

function QueueItem({
  note,
  scribes,
  timeZone,
}: {
  note: TNoteAwaitingReview;
  scribes: { id: string; firstName: string | null; lastName: string | null }[];
  timeZone: string;
}) {
  const assign = useAssignScribe();
  const [chosen, setChosen] = useState(note.scribeId ?? '');
  const selectId = useId();
  const subject = `${note.noteType} for ${note.patientName}`;
  const submit = () =>
    assign.mutate(
      { id: note.id, scribeId: chosen, updatedAt: note.updatedAt },
      {
        onSuccess: (saved) =>
          toast({
            title: 'Success',
            description: withDetail('Scribe assigned', `${saved.scribeName ?? 'The scribe'} will review the ${subject}.`),
            variant: 'success',
          }),
        onError: (error) => void reportMutationError(error, 'Failed to assign the scribe', { withReason: true }),
      },
    );
  return (
    <li data-testid="review-queue-item" data-note-id={note.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">{note.patientName}</p>
        <p className="text-sm text-slate-600">
          {note.noteType} · by {note.authorName} · submitted {formatNoteTime(note.submittedAt, timeZone)}
        </p>
        <p className="text-sm text-slate-700" data-testid="review-queue-scribe">
          {note.scribeName ? (
            <>
              <UserCheck className="mr-1 inline size-4 text-green-700" aria-hidden="true" />
              Assigned to {note.scribeName}
            </>
          ) : (
            'No scribe assigned yet'
          )}
        </p>
      </div>
      <div className="flex items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-xs font-medium text-slate-700">
            Scribe<span className="sr-only"> for the {subject}</span>
          </label>
          <select id={selectId} className={SELECT_CLASS} value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={assign.isPending}>
            <option value="">Choose a scribe</option>
            {scribes.map((scribe) => (
              <option key={scribe.id} value={scribe.id}>
                {staffName(scribe)}
              </option>
            ))}
          </select>
        </div>
        <Button size="sm" disabled={!chosen || chosen === note.scribeId || assign.isPending} onClick={submit}>
          {assign.isPending && <Spinner className="size-4 text-white" />}
          Assign<span className="sr-only">: {subject}</span>
        </Button>
      </div>
    </li>
  );
}
