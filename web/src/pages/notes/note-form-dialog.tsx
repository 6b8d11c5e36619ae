import { lazy, Suspense } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TNote } from '#domain/notes';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { notePatientShown } from './note-format.ts';

// The form (with the upload widget, whose Uppy loads in turn as the form mounts) loads when the
// dialog first opens: most visits to the screen only read the list.
const NoteForm = lazy(async () => ({ default: (await import('./note-form.tsx')).NoteForm }));

/** What the dialog holds: nothing (closed), a new note (for a patient already chosen, maybe), or the note being edited. */
export type TNoteDialogState = { mode: 'create'; patientId?: string | undefined } | { mode: 'edit'; note: TNote } | null;

/** Spec section 2: the dialog 'Create New Note' or 'Edit Note' holding the note form. */
export function NoteFormDialog({ state, user, onClose }: { state: TNoteDialogState; user: TCurrentUser; onClose: () => void }) {
  const note = state?.mode === 'edit' ? state.note : null;
  return (
    <FormDialog
      open={state !== null}
      onClose={onClose}
      className="max-w-2xl"
      testId="note-dialog"
      title={note ? 'Edit Note' : 'Create New Note'}
      description={<>{note ? `${note.noteType} for ${notePatientShown(note)}. ` : ''}Fields marked * are required.</>}
    >
      {state && (
        <Suspense fallback={<LoadingBlock />}>
          <NoteForm key={note?.id ?? 'new'} user={user} note={note} patientId={state.mode === 'create' ? state.patientId : undefined} onDone={onClose} />
        </Suspense>
      )}
    </FormDialog>
  );
}
