import { ArrowRight } from 'lucide-react';
import type { TNote, TNoteRevision } from '#domain/notes';
import { useNoteRevisions } from '../../api/notes/note-revisions.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatNoteTime, notePatientShown } from './note-format.ts';
import { NoteStatusBadge } from './note-status-badge.tsx';

const ACTION_TITLES: Record<TNoteRevision['action'], string> = { created: 'Created', edited: 'Edited', moved: 'Status changed', amended: 'Amended' };

/**
 * A note's history (GET /api/notes/:id/revisions), oldest first: who did what and when, the
 * move from one status to the next, an amendment's reason, and for every change of the text
 * the text before and after, so what a finalized note said before its amendment stays readable.
 */
export function NoteHistoryDialog({ note, timeZone, onClose }: { note: TNote; timeZone: string; onClose: () => void }) {
  const { data, isPending, isError, error, refetch } = useNoteRevisions(note.id);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl" data-testid="history-dialog">
        <DialogHeader className="pr-6">
          <DialogTitle>Note History</DialogTitle>
          <DialogDescription>
            {note.noteType} for {notePatientShown(note)}, oldest change first.
          </DialogDescription>
        </DialogHeader>
        {isPending ? (
          <div>
            <p role="status" className="sr-only">
              Loading the history
            </p>
            <div className="space-y-3" aria-hidden="true">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-16 w-full" />
              ))}
            </div>
          </div>
        ) : isError ? (
          <ErrorState title="Could not load the history" error={error} onRetry={() => void refetch()} />
        ) : data.length === 0 ? (
          // Notes written before histories were kept have none.
          <p data-testid="history-empty" className="rounded-lg border border-dashed bg-white p-6 text-center text-sm text-slate-600">
            No changes have been recorded for this note.
          </p>
        ) : (
          <ol className="space-y-3" data-testid="history-list">
            {data.map((revision) => (
              <RevisionEntry key={revision.id} revision={revision} timeZone={timeZone} />
            ))}
          </ol>
        )}
      </DialogContent>
    </Dialog>
  );
}

function RevisionEntry({ revision, timeZone }: { revision: TNoteRevision; timeZone: string }) {
  const { action, fromStatus, toStatus } = revision;
  const textChanged = revision.contentBefore !== null || revision.contentAfter !== null;
  return (
    <li data-testid="history-entry" data-action={action} className="rounded-lg border bg-white p-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="font-semibold text-slate-900">
          {ACTION_TITLES[action]}
          <span className="font-normal text-slate-700"> by {revision.actorName}</span>
        </p>
        <p className="text-xs text-slate-600">
          <time dateTime={revision.at}>{formatNoteTime(revision.at, timeZone)}</time>
        </p>
      </div>

      {action === 'moved' && fromStatus && toStatus && (
        <p className="mt-2 flex flex-wrap items-center gap-1.5" data-testid="history-move">
          <NoteStatusBadge status={fromStatus} />
          <ArrowRight className="size-4 text-slate-500" aria-label="to" />
          <NoteStatusBadge status={toStatus} />
        </p>
      )}
      {action === 'created' && toStatus && (
        <p className="mt-2 flex items-center gap-1.5">
          As <NoteStatusBadge status={toStatus} />
        </p>
      )}

      {revision.reason && (
        <p className="mt-2 text-slate-800" data-testid="history-reason">
          <span className="font-medium">Reason:</span> {revision.reason}
        </p>
      )}

      {(revision.noteTypeBefore !== null || (action !== 'created' && revision.noteTypeAfter !== null)) && (
        <p className="mt-2 text-slate-700">
          Type: {revision.noteTypeBefore ?? '—'} → {revision.noteTypeAfter ?? '—'}
        </p>
      )}

      {action === 'created' && revision.contentAfter !== null ? (
        <details className="mt-2">
          <summary className="cursor-pointer font-medium text-blue-800">The text as first written</summary>
          <TextBlock text={revision.contentAfter} testId="history-content-after" />
        </details>
      ) : textChanged ? (
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">Before</p>
            <TextBlock text={revision.contentBefore} testId="history-content-before" />
          </div>
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">After</p>
            <TextBlock text={revision.contentAfter} testId="history-content-after" />
          </div>
        </div>
      ) : null}

      {action !== 'created' && (revision.attachmentsBefore !== null || revision.attachmentsAfter !== null) && (
        <p className="mt-2 text-slate-700">
          Attachments: {revision.attachmentsBefore?.length ?? 0} → {revision.attachmentsAfter?.length ?? 0} files
        </p>
      )}
    </li>
  );
}

function TextBlock({ text, testId }: { text: string | null; testId: string }) {
  return (
    <p data-testid={testId} className="mt-1 whitespace-pre-wrap break-words rounded-md border bg-slate-50 p-2 text-slate-800">
      {text ?? <span className="italic text-slate-500">(empty)</span>}
    </p>
  );
}
