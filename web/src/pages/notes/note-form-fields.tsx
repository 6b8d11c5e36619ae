import { Paperclip, X } from 'lucide-react';
import { Controller, useController, type Control } from 'react-hook-form';
import { MAX_NOTE_ATTACHMENTS, NOTE_TYPES, type TNote } from '#domain/notes';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { FormPatientField } from '../../components/preset-patient-field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { FileUpload } from '../../components/upload/file-upload.tsx';
import type { TFileUploader } from '../../components/upload/use-file-uploader.ts';
import { sizeInKb } from '../../lib/file-size.ts';
import type { TAppForm } from '../../lib/use-app-form.ts';
import { notePatientShown } from './note-format.ts';
import type { TNoteFormOutput, TNoteFormValues } from './note-form-values.ts';

export const ATTACHMENT_HINT = 'Supports: JPG, PNG, PDF, DOC (Max 10MB each)';

type TNoteForm = TAppForm<TNoteFormValues, TNoteFormOutput>;

/**
 * The note form's fields (spec section 2): the patient (searchable; fixed once the note exists),
 * the note type, the content and the attachments, up to five in all.
 */
export function NoteFormFields({
  form,
  note,
  presetPatientId,
  editable,
  saving,
  uploader,
  slots,
}: {
  form: TNoteForm;
  /** null: a new note. */
  note: TNote | null;
  /** A new note for this patient (the screen is filtered to them). */
  presetPatientId: string | undefined;
  /** False once the note has moved past what this user edits. */
  editable: boolean;
  saving: boolean;
  uploader: TFileUploader;
  /** How many files the widget may still take: what was left of the five when the form opened. */
  slots: number;
}) {
  const {
    control,
    register,
    formState: { errors },
  } = form;
  const locked = saving || !editable;
  return (
    <>
      {note ? <FixedPatient note={note} /> : <FormPatientField form={form} id="note-patient" presetPatientId={presetPatientId} disabled={saving} />}

      <FormField id="note-type" label="Note type" required error={errors.noteType?.message} testId="noteType">
        {(fieldControl) => (
          <Controller
            control={control}
            name="noteType"
            render={({ field }) => (
              <select {...fieldControl} className={SELECT_CLASS} {...field} disabled={locked}>
                <option value="">Select a note type</option>
                {/* A type no longer offered stays choosable on the note that has it. */}
                {field.value && !(NOTE_TYPES as readonly string[]).includes(field.value) && <option value={field.value}>{field.value}</option>}
                {NOTE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            )}
          />
        )}
      </FormField>

      <FormField id="note-content" label="Content" required error={errors.content?.message} testId="content">
        {(fieldControl) => <Textarea {...fieldControl} rows={8} placeholder="Write the note..." {...register('content')} disabled={locked} />}
      </FormField>

      <AttachmentsField control={control} uploader={uploader} slots={slots} disabled={locked} />
    </>
  );
}

function FixedPatient({ note }: { note: TNote }) {
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium leading-none">Patient</p>
      <p className="rounded-md border bg-slate-50 px-3 py-2 text-sm font-medium text-slate-900" data-testid="chosen-patient">
        {notePatientShown(note)}
      </p>
      <PatientAllergyBanner patientId={note.patientId} />
    </div>
  );
}

/** The files kept (each removable) and the upload widget for new ones, with the count of the five. */
function AttachmentsField({
  control,
  uploader,
  slots,
  disabled,
}: {
  control: Control<TNoteFormValues, unknown, TNoteFormOutput>;
  uploader: TFileUploader;
  slots: number;
  disabled: boolean;
}) {
  const { field, fieldState } = useController({ control, name: 'attachments' });
  const kept = field.value;
  const count = kept.length + uploader.entries.length;
  const error = fieldState.error?.message;
  return (
    <fieldset className="space-y-2" aria-describedby={error ? 'note-attachments-error' : undefined}>
      <legend className="flex w-full items-center justify-between text-sm font-medium">
        Attachments
        <span className="text-xs font-normal text-slate-600" data-testid="attachment-count">
          {count} of {MAX_NOTE_ATTACHMENTS}
        </span>
      </legend>
      {kept.length > 0 && (
        <ul className="space-y-2" aria-label="Attached files" data-testid="kept-attachments">
          {kept.map((file, i) => {
            const name = file.fileName ?? `Attachment ${i + 1}`;
            return (
              <li key={file.objectPath} className="flex items-center gap-2 rounded-md border p-2 text-sm">
                <Paperclip className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                <a
                  href={file.objectPath}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="min-w-0 flex-1 truncate font-medium text-blue-800 hover:underline"
                >
                  {name}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
                {file.size !== null && <span className="shrink-0 text-xs text-slate-600">{sizeInKb(file.size)}</span>}
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={disabled}
                  aria-label={`Remove ${name}`}
                  onClick={() => field.onChange(kept.filter((other) => other.objectPath !== file.objectPath))}
                >
                  <X aria-hidden="true" />
                  <span className="sr-only sm:not-sr-only">Remove</span>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <FileUpload uploader={uploader} purpose="patient-attachment" hint={ATTACHMENT_HINT} disabled={disabled || slots <= 0 || count >= MAX_NOTE_ATTACHMENTS} />
      {error && (
        <p id="note-attachments-error" data-testid="attachments-error" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
