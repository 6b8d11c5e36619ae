import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleExclamationPoint, Paperclip, RefreshCw, X } from 'lucide-react';
import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import {
  MAX_NOTE_ATTACHMENTS, mayEditNote, NOTE_TYPES, ZCreateNote,
  type TNote, type TNoteAttachment, type TNoteStatus, type TUpdateNote,
} from '#domain/notes';
import { useCreateNote } from '../../api/notes/create-note.ts';
import { reloadNote } from '../../api/notes/note.ts';
import { invalidateNotes } from '../../api/notes/notes.ts';
import { isStaleNote, useUpdateNote } from '../../api/notes/update-note.ts';
import { patientQueryOptions } from '../../api/patients/patient.ts';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogClose, DialogFooter } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { FileUpload } from '../../components/upload/file-upload.tsx';
import { useFileUploader } from '../../components/upload/use-file-uploader.ts';
import { describeApiError, isUnauthorizedError, type TDisplayError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { formMoves, maySaveDraft, notePatientShown } from './note-format.ts';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { sizeInKb } from '../../lib/file-size.ts';

export const ATTACHMENT_HINT = 'Supports: JPG, PNG, PDF, DOC (Max 10MB each)';

/** The form's own fields, checked in the browser with the server's own rules (spec section 5). */
const ZNoteFormFields = ZCreateNote.pick({ patientId: true, noteType: true, content: true });
type TField = 'patientId' | 'noteType' | 'content' | 'attachments';
type TFieldErrors = Partial<Record<TField, string>>;
const FIELDS: readonly string[] = ['patientId', 'noteType', 'content', 'attachments'] satisfies TField[];

/** A button of the form: 'Save Draft' (to draft) or the role's move ('Submit to Scribe', ...). */
interface TFormAction {
  label: string;
  to: TNoteStatus;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The note form (spec sections 2, 5 and 6): patient (searchable; fixed once the note exists),
 * note type, content and up to five attachments in all. 'Save Draft' keeps or makes it a draft;
 * the other button is the workflow move this user may make from the note's status. Only what
 * changed is sent, with the version read, so a change made meanwhile is refused, not overwritten.
 */
export function NoteForm({ user, note: initialNote, patientId, onDone }: {
  user: TCurrentUser;
  /** null: a new note. */
  note: TNote | null;
  /** A new note for this patient (the screen is filtered to them). */
  patientId?: string | undefined;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState(initialNote);
  const [chosen, setChosen] = useState<TChosenPatient | null>(null);
  const [cleared, setCleared] = useState(false);
  const preset = useQuery({ ...patientQueryOptions(patientId ?? ''), enabled: Boolean(patientId) && initialNote === null });
  const patient = chosen ?? (!cleared && patientId && preset.data ? preset.data : null);
  const [noteType, setNoteType] = useState(initialNote?.noteType ?? '');
  const [content, setContent] = useState(initialNote?.content ?? '');
  const [kept, setKept] = useState<TNoteAttachment[]>(initialNote?.attachmentFiles ?? []);
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [formError, setFormError] = useState<TDisplayError | null>(null);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const [pressed, setPressed] = useState<TNoteStatus | null>(null);
  // The widget's own limit is what is left of the five when the form opens; the total is checked again on save.
  const [slots] = useState(() => MAX_NOTE_ATTACHMENTS - (initialNote?.attachmentFiles.length ?? 0));
  const uploader = useFileUploader({ purpose: 'patient-attachment', maxFiles: Math.max(slots, 1) });
  const create = useCreateNote();
  const update = useUpdateNote();
  const saving = create.isPending || update.isPending;
  const status = note?.status ?? null;
  const editable = note === null || mayEditNote(user, note);
  const actions: TFormAction[] = editable
    ? [
        ...(maySaveDraft(user, status) ? [{ label: 'Save Draft', to: 'draft' as const }] : []),
        ...formMoves(user, note).map((move) => ({ label: move.label, to: move.to })),
      ]
    : [];
  const attachmentCount = kept.length + uploader.entries.length;

  const clearError = (field: TField) => setErrors((e) => ({ ...e, [field]: undefined }));

  const validate = (): TFieldErrors | null => {
    const found: TFieldErrors = {};
    const parsed = ZNoteFormFields.safeParse({ patientId: note?.patientId ?? patient?.id ?? '', noteType, content });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as TField;
        found[field] ??= issue.message;
      }
    }
    if (kept.length + uploader.attachments.length > MAX_NOTE_ATTACHMENTS) found.attachments = `At most ${MAX_NOTE_ATTACHMENTS} attachments`;
    return Object.keys(found).length > 0 ? found : null;
  };

  const failed = (error: unknown, description: string) => {
    if (isStaleNote(error)) {
      reportMutationError(error, description, { withReason: true });
      setStaleMessage(describeApiError(error).message);
      return;
    }
    const described = reportMutationError(error, description, { withReason: true });
    if (!described) return;
    const placed: TFieldErrors = {};
    const unplaced = described.fieldErrors.filter((fieldError) => {
      if (!FIELDS.includes(fieldError.path)) return true;
      placed[fieldError.path as TField] ??= fieldError.message;
      return false;
    });
    setErrors(placed);
    const allPlaced = described.fieldErrors.length > 0 && unplaced.length === 0;
    setFormError(allPlaced ? null : { ...described, fieldErrors: unplaced });
  };

  const saved = (description: string) => {
    toast({ title: 'Success', description, variant: 'success' });
    uploader.reset();
    onDone();
  };

  const submit = (action: TFormAction) => {
    setFormError(null);
    const found = validate();
    setErrors(found ?? {});
    if (found) return;
    const attachments = [...kept.map((file) => file.objectPath), ...uploader.attachments.map((file) => file.objectPath)];
    setPressed(action.to);

    if (!note) {
      create.mutate(
        { patientId: patient!.id, noteType: noteType.trim(), content, status: action.to, attachments },
        { onSuccess: () => saved('Note created successfully'), onError: (error) => failed(error, 'Failed to create note') },
      );
      return;
    }
    const changes: TUpdateNote = { updatedAt: note.updatedAt };
    if (noteType.trim() !== note.noteType) changes.noteType = noteType.trim();
    if (content !== note.content) changes.content = content;
    if (!sameList(attachments, note.attachments)) changes.attachments = attachments;
    if (action.to !== note.status) changes.status = action.to;
    if (Object.keys(changes).length === 1) {
      toast({ title: 'No changes to save' });
      onDone();
      return;
    }
    update.mutate({ id: note.id, changes }, {
      onSuccess: () => saved('Note updated successfully'),
      onError: (error) => failed(error, 'Failed to update note'),
    });
  };

  const reload = async () => {
    if (!note) return;
    setReloading(true);
    try {
      const fresh = await reloadNote(queryClient, note.id);
      setNote(fresh);
      setNoteType(fresh.noteType);
      setContent(fresh.content);
      setKept(fresh.attachmentFiles);
      setErrors({});
      setFormError(null);
      setStaleMessage(null);
      void invalidateNotes(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  return (
    <form
      noValidate
      autoComplete="off"
      aria-label={note ? 'Edit note' : 'New note'}
      className="space-y-5"
      onSubmit={(event) => event.preventDefault()}
    >
      {note ? (
        <div className="space-y-2">
          <p className="text-sm font-medium leading-none">Patient</p>
          <p className="rounded-md border bg-slate-50 px-3 py-2 text-sm font-medium text-slate-900" data-testid="chosen-patient">
            {notePatientShown(note)}
          </p>
        </div>
      ) : (
        <FormField id="note-patient" label="Patient" required error={errors.patientId} testId="patientId">
          {(control) => (
            patientId && !cleared && !chosen && preset.isPending ? (
              <p className="flex h-10 items-center gap-2 text-sm text-slate-600" role="status"><Spinner className="size-4" />Loading patient…</p>
            ) : (
              <PatientPicker
                control={control}
                value={patient}
                disabled={saving}
                onChange={(next) => {
                  setChosen(next);
                  setCleared(next === null);
                  clearError('patientId');
                }}
              />
            )
          )}
        </FormField>
      )}

      <FormField id="note-type" label="Note type" required error={errors.noteType} testId="noteType">
        {(control) => (
          <select
            {...control}
            className={SELECT_CLASS}
            value={noteType}
            disabled={saving || !editable}
            onChange={(event) => {
              setNoteType(event.target.value);
              clearError('noteType');
            }}
          >
            <option value="">Select a note type</option>
            {/* A type no longer offered stays choosable on the note that has it. */}
            {noteType && !(NOTE_TYPES as readonly string[]).includes(noteType) && <option value={noteType}>{noteType}</option>}
            {NOTE_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
          </select>
        )}
      </FormField>

      <FormField id="note-content" label="Content" required error={errors.content} testId="content">
        {(control) => (
          <Textarea
            {...control}
            rows={8}
            placeholder="Write the note..."
            value={content}
            disabled={saving || !editable}
            onChange={(event) => {
              setContent(event.target.value);
              clearError('content');
            }}
          />
        )}
      </FormField>

      <fieldset className="space-y-2" aria-describedby={errors.attachments ? 'note-attachments-error' : undefined}>
        <legend className="flex w-full items-center justify-between text-sm font-medium">
          Attachments
          <span className="text-xs font-normal text-slate-600" data-testid="attachment-count">
            {attachmentCount} of {MAX_NOTE_ATTACHMENTS}
          </span>
        </legend>
        {kept.length > 0 && (
          <ul className="space-y-2" aria-label="Attached files" data-testid="kept-attachments">
            {kept.map((file, i) => {
              const name = file.fileName ?? `Attachment ${i + 1}`;
              return (
                <li key={file.objectPath} className="flex items-center gap-2 rounded-md border p-2 text-sm">
                  <Paperclip className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                  <a href={file.objectPath} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate font-medium text-blue-800 hover:underline">
                    {name}<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  {file.size !== null && <span className="shrink-0 text-xs text-slate-600">{sizeInKb(file.size)}</span>}
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={saving || !editable}
                    aria-label={`Remove ${name}`}
                    onClick={() => {
                      setKept((list) => list.filter((other) => other.objectPath !== file.objectPath));
                      clearError('attachments');
                    }}
                  >
                    <X aria-hidden="true" />
                    <span className="sr-only sm:not-sr-only">Remove</span>
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <FileUpload
          uploader={uploader}
          purpose="patient-attachment"
          hint={ATTACHMENT_HINT}
          disabled={saving || !editable || slots <= 0 || attachmentCount >= MAX_NOTE_ATTACHMENTS}
        />
        {errors.attachments && (
          <p id="note-attachments-error" data-testid="attachments-error" className="text-sm text-red-700">{errors.attachments}</p>
        )}
      </fieldset>

      {!editable && note && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This note is now {note.status === 'finalized' ? 'finalized' : 'past the stage you edit'}; it can no longer be edited here.
        </p>
      )}

      {staleMessage && note && (
        <div role="alert" data-testid="note-stale" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center">
          <p className="flex-1 text-amber-900">{staleMessage}</p>
          <Button variant="outline" size="sm" onClick={() => void reload()} disabled={reloading}>
            {reloading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
            Reload note
          </Button>
        </div>
      )}

      {formError && (
        <div role="alert" data-testid="note-form-error" className="flex gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
          <CircleExclamationPoint className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
          <div>
            <p className="font-semibold text-red-900">{formError.code === 'auth.forbidden' ? 'Not allowed' : 'Could not save'}</p>
            <p className="text-red-800">{formError.message}</p>
            {formError.fieldErrors.length > 0 && (
              <ul className="mt-1 list-disc pl-4 text-red-800">
                {formError.fieldErrors.map((fieldError) => <li key={`${fieldError.path}:${fieldError.message}`}>{fieldError.path}: {fieldError.message}</li>)}
              </ul>
            )}
          </div>
        </div>
      )}

      {/* Kept in view at the foot of the scrolling dialog, so saving never needs a scroll. */}
      <DialogFooter className="sticky -bottom-6 z-10 -mx-6 -mb-6 flex-row flex-wrap justify-end border-t bg-background px-6 py-4">
        {uploader.busy && (
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
          return (
            <Button
              key={action.to}
              variant={primary ? 'default' : 'outline'}
              disabled={saving || uploader.busy || reloading}
              onClick={() => submit(action)}
            >
              {saving && pressed === action.to && <Spinner className={primary ? 'size-4 text-white' : 'size-4'} />}
              {saving && pressed === action.to ? 'Saving...' : action.label}
            </Button>
          );
        })}
      </DialogFooter>
    </form>
  );
}
