import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { MAX_NOTE_ATTACHMENTS, mayEditNote, type TNote, type TNoteStatus, type TUpdateNote } from '#domain/notes';
import { useCreateNote } from '../../api/notes/create-note.ts';
import { reloadNote } from '../../api/notes/note.ts';
import { invalidateNotes } from '../../api/notes/notes.ts';
import { isStaleNote, useUpdateNote } from '../../api/notes/update-note.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { useFileUploader } from '../../components/upload/use-file-uploader.ts';
import { describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { backToDraft, backToDraftQuestion, NoteFormActions, noteFormActions, type TNoteFormAction } from './note-form-actions.tsx';
import { NoteFormFields } from './note-form-fields.tsx';
import {
  attachmentTotalError,
  NOTE_FORM_FIELDS,
  NOTE_SERVER_PATHS,
  noteFormSchema,
  noteFormValues,
  type TNoteFormOutput,
  type TNoteFormValues,
} from './note-form-values.ts';

/**
 * The note form (spec sections 2, 5 and 6): patient, note type, content and up to five
 * attachments in all. 'Save Draft' keeps or makes it a draft; the other button is the workflow
 * move this user may make from the note's status. Only what changed is sent, with the version
 * read, so a change made meanwhile is refused (the stale banner offers to read it again), not
 * overwritten.
 */
export function NoteForm({
  user,
  note: initialNote,
  patientId,
  onDone,
}: {
  user: TCurrentUser;
  /** null: a new note. */
  note: TNote | null;
  /** A new note for this patient (the screen is filtered to them). */
  patientId?: string | undefined;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  // The note being edited; replaced when the user reads it again after someone else's change.
  const [note, setNote] = useState(initialNote);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const [pressed, setPressed] = useState<TNoteStatus | null>(null);
  // 'Save Draft' on a note already on its way asks first: it undoes a submission or a review.
  const [confirming, setConfirming] = useState<TNoteFormAction | null>(null);
  // The widget's own limit is what is left of the five when the form opens; the total is checked again on save.
  const [slots] = useState(() => MAX_NOTE_ATTACHMENTS - (initialNote?.attachmentFiles.length ?? 0));
  const uploader = useFileUploader({ purpose: 'patient-attachment', maxFiles: Math.max(slots, 1) });
  const form = useAppForm<TNoteFormValues, TNoteFormOutput>({
    schema: noteFormSchema(initialNote),
    check: (values) => ({ attachments: attachmentTotalError(values.attachments.length, uploader.attachments.length) }),
    defaultValues: noteFormValues(initialNote),
    fields: NOTE_FORM_FIELDS,
    serverPaths: NOTE_SERVER_PATHS,
  });
  const create = useCreateNote();
  const update = useUpdateNote();
  const saving = create.isPending || update.isPending;

  const failed = (error: unknown, description: string) => {
    const described = reportMutationError(error, description, { withReason: true });
    if (!described) return;
    if (isStaleNote(error)) setStaleMessage(described.message);
    else form.showServerError(described);
  };

  const saved = (description: string) => {
    toast({ title: 'Success', description, variant: 'success' });
    uploader.reset();
    onDone();
  };

  const send = (values: TNoteFormOutput, action: TNoteFormAction) => {
    const attachments = [...values.attachments, ...uploader.attachments].map((file) => file.objectPath);
    setPressed(action.to);
    if (!note) {
      create.mutate(
        { patientId: values.patient, noteType: values.noteType, content: values.content, status: action.to, attachments },
        { onSuccess: () => saved('Note created successfully'), onError: (error) => failed(error, 'Failed to create note') },
      );
      return;
    }
    const changes: TUpdateNote = { updatedAt: note.updatedAt, ...form.changedValues({ noteType: values.noteType, content: values.content }, note) };
    if (form.getFieldState('attachments').isDirty || uploader.attachments.length > 0) changes.attachments = attachments;
    if (action.to !== note.status) changes.status = action.to;
    if (Object.keys(changes).length === 1) {
      toast({ title: 'No changes to save' });
      onDone();
      return;
    }
    update.mutate(
      { id: note.id, changes },
      { onSuccess: () => saved('Note updated successfully'), onError: (error) => failed(error, 'Failed to update note') },
    );
  };

  const reload = async () => {
    if (!note) return;
    setReloading(true);
    try {
      const fresh = await reloadNote(queryClient, note.id);
      setNote(fresh);
      form.reset(noteFormValues(fresh));
      form.setFormError(null);
      setStaleMessage(null);
      void invalidateNotes(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) form.setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  const editable = note === null || mayEditNote(user, note);
  return (
    // Each action button submits with its own status; Enter in a field sends nothing.
    <form noValidate autoComplete="off" aria-label={note ? 'Edit note' : 'New note'} className="space-y-5" onSubmit={(event) => event.preventDefault()}>
      <NoteFormFields form={form} note={note} presetPatientId={patientId} editable={editable} saving={saving} uploader={uploader} slots={slots} />

      {!editable && note && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This note is now {note.status === 'finalized' ? 'finalized' : 'past the stage you edit'}; it can no longer be edited here.
        </p>
      )}
      {staleMessage && note && (
        <StaleBanner message={staleMessage} reloadLabel="Reload note" reloading={reloading} onReload={() => void reload()} testId="note-stale" />
      )}
      {form.formError && <FormErrorAlert error={form.formError} testId="note-form-error" />}

      <NoteFormActions
        actions={noteFormActions(user, note)}
        saving={saving}
        pressed={pressed}
        uploading={uploader.busy}
        reloading={reloading}
        onAction={(action) => (backToDraft(note, action) ? setConfirming(action) : void form.onSubmit((values) => send(values, action))())}
      />
      {confirming && note && (
        <ConfirmDialog
          open
          {...backToDraftQuestion(note)}
          pending={saving}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const action = confirming;
            setConfirming(null);
            void form.onSubmit((values) => send(values, action))();
          }}
        />
      )}
    </form>
  );
}
