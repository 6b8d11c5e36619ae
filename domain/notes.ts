import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { lineString, textString } from './text.ts';
import { can } from './permissions.ts';
import type { TRole } from './roles.ts';

export const NOTE_STATUSES = ['draft', 'submitted_to_scribe', 'reviewed_by_scribe', 'finalized', 'submitted_to_admin'] as const;
export type TNoteStatus = (typeof NOTE_STATUSES)[number];

/** Spec section 3: the note types offered. */
export const NOTE_TYPES = [
  'Nurse Assessment',
  'Progress Note',
  'Procedure Note',
  'Discharge Summary',
  'Treatment Plan',
  'Medication Review',
  'Follow-up Note',
  'Consultation Note',
] as const;

/** Spec section 9: at most 5 attachments per note, each at most 10 MB. */
export const MAX_NOTE_ATTACHMENTS = 5;

/** The badge text per status (spec section 2's Workflow tab names the stages). */
export const NOTE_STATUS_LABELS: Record<TNoteStatus, string> = {
  draft: 'Draft',
  submitted_to_scribe: 'Submitted',
  reviewed_by_scribe: 'Reviewed',
  finalized: 'Finalized',
  submitted_to_admin: 'Submitted to Admin',
};

/** A note in these statuses is locked: its content changes only by an amendment. */
export const LOCKED_NOTE_STATUSES: readonly TNoteStatus[] = ['finalized', 'submitted_to_admin'];
export const noteIsLocked = (status: TNoteStatus) => LOCKED_NOTE_STATUSES.includes(status);

/**
 * Who may change a note's content, type or attachments (docs/decisions/notes.md):
 * - its author while it is a draft (spec section 4: 'Edit' on a draft);
 * - a reviewer while it waits for review ('Edit & Review', `notes.editUnderReview`);
 * - an admin at any status before it is locked (`notes.editBeforeFinal`);
 * - a locked note: only an amendment (mayAmendNote).
 */
export function mayEditNote(user: { id: string; role: TRole }, note: { authorId: string; status: TNoteStatus }): boolean {
  if (noteIsLocked(note.status)) return false;
  if (can(user, 'notes.editBeforeFinal')) return true;
  if (note.status === 'draft') return note.authorId === user.id;
  return note.status === 'submitted_to_scribe' && can(user, 'notes.editUnderReview');
}

/**
 * Whether the user edits such a note at some status: a refusal is then about the note's
 * state (409), not about who she is (403).
 */
export function editsNoteAtSomeStatus(user: { id: string; role: TRole }, note: { authorId: string }): boolean {
  return note.authorId === user.id || can(user, 'notes.editBeforeFinal') || can(user, 'notes.editUnderReview');
}

/** An admin amends a finalized note (with a reason); nobody edits it in place. */
export function mayAmendNote(user: { role: TRole }, note: { status: TNoteStatus }): boolean {
  return note.status === 'finalized' && can(user, 'notes.amend');
}

/** One attached file as the note shows it: the path the note stores, and what the file is. */
export const ZNoteAttachment = z.object({
  objectPath: z.string(),
  fileName: z.string().nullable(),
  size: z.number().int().nullable(),
  contentType: z.string().nullable(),
});
export type TNoteAttachment = z.infer<typeof ZNoteAttachment>;

export const ZNote = z.object({
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  /** Null where the patient is unknown or the reader may not see patient records: show 'Patient #' and the id's last 4. */
  patientName: z.string().nullable(),
  authorId: z.string().uuid(),
  authorName: z.string(),
  noteType: z.string(),
  content: z.string(),
  /** Object paths (spec section 3). */
  attachments: z.array(z.string()),
  attachmentFiles: z.array(ZNoteAttachment),
  status: z.enum(NOTE_STATUSES),
  scribeId: z.string().uuid().nullable(),
  scribeName: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  finalizedAt: z.string().nullable(),
  submittedToAdminAt: z.string().nullable(),
  /** When a finalized note was last amended; null if never. */
  amendedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Also the note's version: a PUT sends back the one it read (a stale one is a 409). */
  updatedAt: z.string(),
});
export type TNote = z.infer<typeof ZNote>;
export const ZNoteList = z.array(ZNote);

export const NOTE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const ZNoteListQuery = pageQuery(NOTE_PAGE).extend({
  patientId: z.string().uuid('Invalid patient id').optional(),
  status: z.enum(NOTE_STATUSES).optional(),
});
export type TNoteListQuery = z.infer<typeof ZNoteListQuery>;

const ZNoteType = lineString().trim().min(1, 'Note type is required').max(100, 'At most 100 characters');
const ZContent = textString()
  .refine((text) => text.trim().length > 0, 'Content is required')
  .pipe(z.string().max(100_000, 'At most 100000 characters'));
const ZAttachments = z.array(z.string().max(200)).max(MAX_NOTE_ATTACHMENTS, `At most ${MAX_NOTE_ATTACHMENTS} attachments`);

/**
 * POST /api/notes (spec section 7). The author is always the caller, and a note starts as a
 * draft; `status: 'submitted_to_scribe'` submits it at once (the workflow decides who may).
 * Fields the server sets (authorId, scribeId, reviewedAt, finalizedAt) are ignored if sent.
 */
export const ZCreateNote = z.object({
  patientId: z.string({ error: 'Patient is required' }).uuid('Patient is required'),
  noteType: ZNoteType,
  content: ZContent,
  status: z.enum(NOTE_STATUSES).optional(),
  attachments: ZAttachments.optional(),
});
export type TCreateNote = z.infer<typeof ZCreateNote>;

/**
 * PUT /api/notes/{id}: the fields that change, and `updatedAt` as read (the version). A status
 * is a move of the note workflow. A finalized note takes only an amendment: new content (or
 * type, or attachments) with `amendmentReason`, by an admin. The version is optional, as
 * If-Match is to a FHIR server: the spec's payload (section 7) has none, and a status move is
 * guarded by the workflow anyway; sent (the web always sends it), another note's is a 409.
 * What the server sets (scribeId, reviewedAt, finalizedAt) is ignored as sent.
 */
export const ZUpdateNote = z.object({
  updatedAt: z.string().min(1, 'The version of the note you edited, as read').optional(),
  noteType: ZNoteType.optional(),
  content: ZContent.optional(),
  attachments: ZAttachments.optional(),
  status: z.enum(NOTE_STATUSES).optional(),
  amendmentReason: z.string().trim().min(1, 'A reason is required').max(500, 'At most 500 characters').optional(),
});
export type TUpdateNote = z.infer<typeof ZUpdateNote>;

/**
 * GET /api/notes/awaiting-review ('Add Scribe', a scheduler's): the notes waiting for a scribe's
 * review, oldest submission first, each with whom it is assigned to. What the scheduler needs to
 * route the work and no more: no content or attachments (docs/decisions/notes.md).
 */
export const ZNoteAwaitingReview = z.object({
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  patientName: z.string(),
  noteType: z.string(),
  authorName: z.string(),
  submittedAt: z.string(),
  scribeId: z.string().uuid().nullable(),
  scribeName: z.string().nullable(),
  /** The note's version: an assignment may send it back, to be refused if the note moved on meanwhile. */
  updatedAt: z.string(),
});
export type TNoteAwaitingReview = z.infer<typeof ZNoteAwaitingReview>;
/** The queue is read whole up to this many; a clinic with more waiting has a bigger problem than paging. */
export const REVIEW_QUEUE_LIMIT = 200;

/** PUT /api/notes/{id}/scribe: the scribe who is to review a note waiting for review. */
export const ZAssignScribe = z
  .object({
    scribeId: z.string({ error: 'Choose a scribe' }).uuid('Choose a scribe from the list'),
    updatedAt: z.string().min(1, 'The version of the note, as read').optional(),
  })
  .strict();
export type TAssignScribe = z.infer<typeof ZAssignScribe>;

export const NOTE_REVISION_ACTIONS = ['created', 'edited', 'moved', 'amended'] as const;

/** One change of a note: who, when, what move, and the text before and after. */
export const ZNoteRevision = z.object({
  id: z.string().uuid(),
  noteId: z.string().uuid(),
  at: z.string(),
  actorId: z.string().uuid(),
  actorName: z.string(),
  action: z.enum(NOTE_REVISION_ACTIONS),
  fromStatus: z.enum(NOTE_STATUSES).nullable(),
  toStatus: z.enum(NOTE_STATUSES).nullable(),
  noteTypeBefore: z.string().nullable(),
  noteTypeAfter: z.string().nullable(),
  contentBefore: z.string().nullable(),
  contentAfter: z.string().nullable(),
  attachmentsBefore: z.array(z.string()).nullable(),
  attachmentsAfter: z.array(z.string()).nullable(),
  reason: z.string().nullable(),
});
export type TNoteRevision = z.infer<typeof ZNoteRevision>;
export const ZNoteRevisionList = z.array(ZNoteRevision);
