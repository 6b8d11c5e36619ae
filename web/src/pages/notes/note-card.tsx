import { FileText, History, Paperclip, Pencil, PenLine, UserRound } from 'lucide-react';
import { useId, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { mayAmendNote, mayEditNote, type TNote, type TNoteStatus } from '#domain/notes';
import { useUpdateNote } from '../../api/notes/update-note.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cardMoveLabel, cardMoves, formatNoteTime, notePatientShown } from './note-format.ts';
import { NoteStatusBadge } from './note-status-badge.tsx';
import { sizeInKb } from '../../lib/file-size.ts';

/** What a card asks the screen to open. */
export interface TNoteCardActions {
  onEdit: (note: TNote) => void;
  onAmend: (note: TNote) => void;
  onHistory: (note: TNote) => void;
}

/** Past this many characters (or lines) the preview is cut, with a way to read the rest. */
const PREVIEW_CHARS = 320;
const PREVIEW_LINES = 4;

/**
 * One note (spec section 2): the patient as this reader may see them, type, status, author,
 * dates, 'Amended', a preview of the text, the attached files, and the buttons this user may
 * press: the workflow's forward moves from its status, Edit (or 'Edit & Review' for a scribe),
 * Amend for an admin on a finalized note, and History.
 */
export function NoteCard({ note, user, timeZone, actions }: { note: TNote; user: TCurrentUser; timeZone: string; actions: TNoteCardActions }) {
  const headingId = useId();
  const who = notePatientShown(note);
  const subject = `${note.noteType} for ${who}`;
  const dates: [string, string][] = [['Created', note.createdAt]];
  // A note sent back to draft is no longer reviewed (the server clears the stamp; one kept from
  // before that rule is not shown either): its History tells what happened.
  if (note.reviewedAt && !['draft', 'submitted_to_scribe'].includes(note.status)) {
    dates.push([note.scribeName ? `Reviewed by ${note.scribeName}` : 'Reviewed', note.reviewedAt]);
  }
  if (note.finalizedAt) dates.push(['Finalized', note.finalizedAt]);
  if (note.amendedAt) dates.push(['Amended', note.amendedAt]);
  if (!note.reviewedAt && !note.finalizedAt && note.updatedAt !== note.createdAt) dates.push(['Updated', note.updatedAt]);

  return (
    <li data-testid="note-card" data-note-id={note.id} data-status={note.status}>
      <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border bg-white p-4 sm:p-5">
        <header className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h3 id={headingId} className="flex min-w-0 items-center gap-1.5 font-semibold text-slate-900">
              <UserRound className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              <span className="truncate" data-testid="note-patient">
                {who}
              </span>
            </h3>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-sm text-slate-600">
              <span className="flex items-center gap-1 font-medium text-slate-800" data-testid="note-type">
                <FileText className="size-3.5 shrink-0" aria-hidden="true" />
                {note.noteType}
              </span>
              <span aria-hidden="true">·</span>
              <span data-testid="note-author">by {note.authorName}</span>
              {/* 'Add Scribe': whose review it waits for. */}
              {note.status === 'submitted_to_scribe' && note.scribeName && (
                <>
                  <span aria-hidden="true">·</span>
                  <span data-testid="note-scribe">for review by {note.scribeName}</span>
                </>
              )}
            </p>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-1.5">
            <NoteStatusBadge status={note.status} />
            {note.amendedAt && (
              <Badge data-testid="note-amended" className="border-amber-300 bg-amber-50 text-amber-900">
                Amended
              </Badge>
            )}
          </div>
        </header>

        <NotePreview content={note.content} />

        {note.attachmentFiles.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label={`Attachments of ${subject}`} data-testid="note-attachments">
            {note.attachmentFiles.map((file, i) => (
              <li key={file.objectPath} className="min-w-0 max-w-full">
                <a
                  href={file.objectPath}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex min-w-0 items-center gap-1.5 rounded-md border bg-slate-50 px-2 py-1 text-xs text-blue-800 hover:bg-blue-50 hover:underline"
                >
                  <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
                  <span className="truncate">{file.fileName ?? `Attachment ${i + 1}`}</span>
                  {file.size !== null && <span className="shrink-0 text-slate-600">{sizeInKb(file.size)}</span>}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        )}

        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" data-testid="note-dates">
          {dates.map(([label, at]) => (
            <div key={label} className="flex gap-1">
              <dt>{label}</dt>
              <dd className="text-slate-800">{formatNoteTime(at, timeZone)}</dd>
            </div>
          ))}
        </dl>

        <NoteActions note={note} user={user} subject={subject} actions={actions} />
      </article>
    </li>
  );
}

function NotePreview({ content }: { content: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = content.length > PREVIEW_CHARS || content.split('\n').length > PREVIEW_LINES;
  return (
    <div>
      <p data-testid="note-content" className={`whitespace-pre-wrap break-words text-sm text-slate-800 ${long && !expanded ? 'line-clamp-4' : ''}`}>
        {content}
      </p>
      {long && (
        <button
          type="button"
          className="mt-1 text-sm font-medium text-blue-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-expanded={expanded}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? 'Show less' : 'Show full note'}
        </button>
      )}
    </div>
  );
}

function NoteActions({ note, user, subject, actions }: { note: TNote; user: TCurrentUser; subject: string; actions: TNoteCardActions }) {
  const update = useUpdateNote();
  const [moving, setMoving] = useState<TNoteStatus | null>(null);
  const moves = cardMoves(user, note);
  const editable = mayEditNote(user, note);
  const amendable = mayAmendNote(user, note);
  // A scribe edits a note waiting for review on her way to marking it reviewed (spec section 4).
  const editLabel = note.status === 'submitted_to_scribe' && moves.some((m) => m.to === 'reviewed_by_scribe') ? 'Edit & Review' : 'Edit';

  const move = (to: TNoteStatus) => {
    setMoving(to);
    update.mutate(
      { id: note.id, changes: { status: to, updatedAt: note.updatedAt } },
      {
        onSuccess: () => toast({ title: 'Success', description: 'Note updated successfully', variant: 'success' }),
        // Someone else moved or changed it first: the server says so, and the lists are read again.
        onError: (error) => void reportMutationError(error, 'Failed to update note', { withReason: true }),
        onSettled: () => setMoving(null),
      },
    );
  };

  return (
    <div className="flex flex-wrap items-center gap-2 border-t pt-3" data-testid="note-actions">
      {moves.map((m) => (
        <Button key={m.to} size="sm" disabled={update.isPending} onClick={() => move(m.to)}>
          {moving === m.to && <Spinner className="size-4 text-white" />}
          {cardMoveLabel(m)}
          <span className="sr-only">: {subject}</span>
        </Button>
      ))}
      {editable && (
        <Button size="sm" variant="outline" disabled={update.isPending} onClick={() => actions.onEdit(note)}>
          <Pencil aria-hidden="true" />
          {editLabel}
          <span className="sr-only">: {subject}</span>
        </Button>
      )}
      {amendable && (
        <Button size="sm" variant="outline" disabled={update.isPending} onClick={() => actions.onAmend(note)}>
          <PenLine aria-hidden="true" />
          Amend<span className="sr-only">: {subject}</span>
        </Button>
      )}
      <Button size="sm" variant="ghost" onClick={() => actions.onHistory(note)}>
        <History aria-hidden="true" />
        History<span className="sr-only">: {subject}</span>
      </Button>
    </div>
  );
}

/** Stands in for a card while the notes load. */
export function NoteCardSkeleton() {
  return (
    <li data-testid="note-card-skeleton" aria-hidden="true" className="space-y-3 rounded-lg border bg-white p-4 sm:p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="flex-1 space-y-2">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
        <Skeleton className="h-5 w-20 rounded-full" />
      </div>
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-4/5" />
      <div className="flex gap-2 border-t pt-3">
        <Skeleton className="h-9 w-28" />
        <Skeleton className="h-9 w-20" />
      </div>
    </li>
  );
}
