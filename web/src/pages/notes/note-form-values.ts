import { z, type ZodType } from 'zod';
import { MAX_NOTE_ATTACHMENTS, ZCreateNote, type TNote, type TNoteAttachment } from '#domain/notes';
import type { TChosenPatient } from '../../components/patient-picker.tsx';
import type { TServerPaths } from '../../lib/form-errors.ts';

/** What the note form holds. */
export interface TNoteFormValues {
  /** A new note's patient, as chosen; an existing note's is fixed and not in the form. */
  patient: TChosenPatient | null;
  noteType: string;
  content: string;
  /** The files already attached that stay (the upload widget holds the new ones). */
  attachments: TNoteAttachment[];
}

/** What the schema makes of it: `patient` becomes the patient's id (the note's own, on an edit). */
export type TNoteFormOutput = Omit<TNoteFormValues, 'patient'> & { patient: string };

export const NOTE_FORM_FIELDS = ['patient', 'noteType', 'content', 'attachments'] as const;
/** The server names the patient by its id. */
export const NOTE_SERVER_PATHS: TServerPaths<TNoteFormValues> = { patientId: 'patient' };

export function noteFormValues(note: TNote | null): TNoteFormValues {
  return { patient: null, noteType: note?.noteType ?? '', content: note?.content ?? '', attachments: note?.attachmentFiles ?? [] };
}

const ZChosen = z.custom<TChosenPatient | null>();

/**
 * The form's fields checked with the server's own rules (spec section 5): a new note needs its
 * patient ('Patient is required'), a type and some content.
 */
export function noteFormSchema(note: TNote | null): ZodType<TNoteFormOutput, TNoteFormValues> {
  const patient = note ? ZChosen.transform(() => note.patientId) : ZChosen.transform((chosen) => chosen?.id ?? '').pipe(ZCreateNote.shape.patientId);
  return ZCreateNote.pick({ noteType: true, content: true }).extend({ patient, attachments: z.custom<TNoteAttachment[]>() });
}

/** The five are counted across the files kept and those uploaded; checked again on save, as the server does. */
export const attachmentTotalError = (kept: number, uploaded: number): string | undefined =>
  kept + uploaded > MAX_NOTE_ATTACHMENTS ? `At most ${MAX_NOTE_ATTACHMENTS} attachments` : undefined;
