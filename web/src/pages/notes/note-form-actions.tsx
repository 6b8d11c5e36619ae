import type { TCurrentUser } from '#domain/auth';
import { mayEditNote, type TNote, type TNoteStatus } from '#domain/notes';
import { Button } from '../../components/ui/button.tsx';
import { DialogClose } from '../../components/ui/dialog.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formMoves, maySaveDraft } from './note-format.ts';

/** A button of the form: 'Save Draft' (to draft) or the role's move ('Submit to Scribe', ...). */
export interface TNoteFormAction {
  label: string;
  to: TNoteStatus;
}

/**
 * The form's buttons for this user and note (spec section 6): 'Save Draft' where the note may be
 * (or go back to) a draft, then the forward move she may make; none on a note she may no longer edit.
 */
export function noteFormActions(user: TCurrentUser, note: TNote | null): TNoteFormAction[] {
  if (note && !mayEditNote(user, note)) return [];
  const draft: TNoteFormAction[] = maySaveDraft(user, note?.status ?? null) ? [{ label: 'Save Draft', to: 'draft' }] : [];
  return [...draft, ...formMoves(user, note).map((move) => ({ label: move.label, to: move.to }))];
}

/** Whether the action sends a note that is on its way (submitted or reviewed) back to draft. */
export const backToDraft = (note: TNote | null, action: TNoteFormAction) => note !== null && action.to === 'draft' && note.status !== 'draft';

/**
 * What is asked before a note goes back to draft (issue 29: an admin's 'Save Draft' undid a
 * scribe's review without a word): whose work it undoes, and that the history keeps it.
 */
export function backToDraftQuestion(note: TNote): { title: string; description: string; confirmLabel: string } {
  const reviewed = note.status === 'reviewed_by_scribe';
  const reviewer = note.scribeName ?? 'the scribe';
  return {
    title: reviewed ? 'Undo the review?' : 'Take the note back from review?',
    description: reviewed
      ? `Saving as a draft undoes ${reviewer}'s review: the note must be submitted and reviewed again. Its history keeps the review.`
      : "Saving as a draft takes the note out of the scribes' review queue until it is submitted again. Its history keeps the submission.",
    confirmLabel: reviewed ? 'Undo review and save draft' : 'Save as draft',
  };
}

/**
 * The note form's action bar, kept in view at the foot of the dialog: 'Cancel' and the actions,
 * the last one primary. Nothing can be sent while a file is still on its way, a save is under
 * way, or the note is being read again.
 */
export function NoteFormActions({
  actions,
  saving,
  pressed,
  uploading,
  reloading,
  onAction,
}: {
  actions: TNoteFormAction[];
  saving: boolean;
  /** The action whose save is under way: its button says so. */
  pressed: TNoteStatus | null;
  uploading: boolean;
  reloading: boolean;
  onAction: (action: TNoteFormAction) => void;
}) {
  return (
    <StickyDialogFooter className="flex-wrap">
      {uploading && (
        <p className="mr-auto flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner className="size-4" />
          Waiting for uploads…
        </p>
      )}
      <DialogClose asChild>
        <Button variant="outline">Cancel</Button>
      </DialogClose>
      {actions.map((action, i) => {
        const primary = i === actions.length - 1;
        const busy = saving && pressed === action.to;
        return (
          <Button key={action.to} variant={primary ? 'default' : 'outline'} disabled={saving || uploading || reloading} onClick={() => onAction(action)}>
            {busy && <Spinner className={primary ? 'size-4 text-white' : 'size-4'} />}
            {busy ? 'Saving...' : action.label}
          </Button>
        );
      })}
    </StickyDialogFooter>
  );
}
