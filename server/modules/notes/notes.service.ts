import { staffName } from '#domain/auth';
import { eq } from 'drizzle-orm';
import {
  editsNoteAtSomeStatus,
  mayAmendNote,
  mayEditNote,
  noteIsLocked,
  REVIEW_QUEUE_LIMIT,
  type TAssignScribe,
  type TCreateNote,
  type TNoteAwaitingReview,
  type TNote,
  type TNoteListQuery,
  type TNoteStatus,
  type TUpdateNote,
} from '#domain/notes';
import { can } from '#domain/permissions';
import { noteVisibleTo } from '#domain/record-scope';
import { NOTE_WORKFLOW, serverSetFields } from '#domain/workflows';
import type { Tx } from '../../db/database.ts';
import { patientNotes } from '../../db/schema/clinical.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit, type AuditEvent } from '../../audit/audit-writer.ts';
import { writerOf } from '../../scope/writer.ts';
import { scopeOf } from '../../scope/read-scope.ts';
import { readOf } from '../../scope/reader.ts';
import { resolveNotesOwed } from '../appointments/appointments.notices.ts';
import { claimObjects } from '../files/files.service.ts';
import { noticeAmended, noticeMoved, noticeScribeAssigned, type TNoteNotice } from './notes.notices.ts';
import {
  decodeNoteCursor,
  findActiveScribe,
  listAwaitingReview,
  insertRevision,
  listNotes,
  listRevisions,
  lockNote,
  noteAsWritten,
  readNote,
  type NoteRow,
} from './notes.queries.ts';

const NOT_FOUND = 'Note not found';
const STALE = 'This note was changed by someone else. Reload to see their changes, then edit again.';

/** The reads of notes, each in the caller's note scope (domain/record-scope.ts); anything else is the same 404. */
export const NOTE_READS = {
  /**
   * The notes the caller may see, newest change first, a page at a time. Audited with every
   * patient it showed; no clinical text goes into the audit trail.
   */
  list: readOf({
    action: 'note.list',
    entityType: 'note',
    run: ({ db, scope }, query: TNoteListQuery): Promise<TServedPage<TNote>> =>
      listNotes(db, scope, {
        patientId: query.patientId,
        status: query.status,
        limit: query.limit,
        after: query.cursor ? decodeNoteCursor(query.cursor) : null,
      }),
    shows: (page) => (page.items.length > 0 ? { patientIds: [...new Set(page.items.map((note) => note.patientId))] } : null),
  }),
  get: readOf({
    action: 'note.read',
    entityType: 'note',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readNote(db, scope, id),
    shows: (note, id) => ({ entityId: id, patientId: note.patientId }),
  }),
  /** A note's history, oldest first, to whoever may see the note. */
  history: readOf({
    action: 'note.history',
    entityType: 'note',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, id: string) => {
      const note = await readNote(db, scope, id);
      return note && { patientId: note.patientId, revisions: await listRevisions(db, id) };
    },
    shows: ({ patientId }, id) => ({ entityId: id, patientId }),
  }),
};

/**
 * 'Add Scribe': the notes waiting for review for a scheduler to route, without their text,
 * audited with every patient they name.
 */
export const REVIEW_QUEUE_READ = readOf({
  action: 'note.review_queue',
  entityType: 'note',
  run: async ({ db, scope }, _: void) => listAwaitingReview(db, REVIEW_QUEUE_LIMIT, scope.patientSeen),
  shows: (queue: TNoteAwaitingReview[]) => (queue.length > 0 ? { patientIds: [...new Set(queue.map((n) => n.patientId))] } : null),
});

/**
 * PUT /api/notes/{id}/scribe ('Add Scribe'): the note, waiting for review, gets the scribe who
 * is to review it (an active scribe, else 400); a note that moved on meanwhile is a 409, and so
 * is a stale version when sent. Any scribe may still review it; the assignment says whose it is,
 * on the card and in her notifications.
 */
export async function assignScribe(deps: Deps, ctx: SignedInContext, id: string, input: TAssignScribe): Promise<TNoteAwaitingReview> {
  return inTransaction(deps, async (tx, raise) => {
    const current = await lockNote(tx, id);
    if (!current) throw notFound(NOT_FOUND);
    const writer = writerOf(tx, ctx, deps.config.now());
    await writer.mustSee(current.patientId);
    if (current.status !== 'submitted_to_scribe') throw new HttpError('workflow.illegalMove', { message: 'This note is no longer waiting for review' });
    if (input.updatedAt !== undefined && input.updatedAt !== current.updatedAt.toISOString()) throw stale(STALE);
    const scribe = await findActiveScribe(tx, input.scribeId);
    if (!scribe) throw invalid('scribeId', 'Must be an active scribe');
    if (current.scribeId !== scribe.id) {
      const now = new Date(Math.max(deps.config.now().getTime(), current.updatedAt.getTime() + 1));
      await tx.update(patientNotes).set({ scribeId: scribe.id, updatedAt: now }).where(eq(patientNotes.id, id));
      await recordAudit(tx, ctx, { action: 'note.assign_scribe', entityType: 'note', entityId: id, patientId: current.patientId });
      await noticeScribeAssigned(tx, raise, { ...noticeOf(ctx, current), scribeId: scribe.id });
    }
    return (await listAwaitingReview(tx, REVIEW_QUEUE_LIMIT, writer.scope.patientSeen)).find((n) => n.id === id)!;
  });
}

/** A move of a note by the caller (its author decides own-only moves). */
const decideNoteMove = (ctx: SignedInContext, note: Pick<NoteRow, 'authorId'>, from: TNoteStatus, to: TNoteStatus) =>
  decideMove(NOTE_WORKFLOW, ctx.user, from, to, note);

type TNoteMove = ReturnType<typeof decideNoteMove>;

/** What the server writes on a move (scribeId, reviewedAt, finalizedAt), whatever the client sent. */
const stampsOf = (move: TNoteMove, now: Date, ctx: SignedInContext) =>
  serverSetFields(move, { now, actorId: ctx.user.id }) as Partial<{ scribeId: string; reviewedAt: Date | null; finalizedAt: Date }>;

const noticeOf = (ctx: SignedInContext, note: Pick<NoteRow, 'id' | 'noteType' | 'authorId'>): TNoteNotice => ({
  noteId: note.id,
  noteType: note.noteType,
  authorId: note.authorId,
  actorId: ctx.user.id,
  actorName: staffName(ctx.user),
});

/** The caller's view of a note just written; the writer sees it even when a move took it out of her scope. */
const written = (tx: Tx, ctx: SignedInContext, id: string) => noteAsWritten(tx, scopeOf(ctx, new Date()), id);

/**
 * POST /api/notes: a note by the caller (always its author) for an active patient. It starts
 * as a draft; asked for `submitted_to_scribe`, it is submitted at once, if the workflow lets
 * the caller. Its attachments must be the caller's confirmed uploads. The creation (and the
 * move) are the note's first revisions.
 */
export async function createNote(deps: Deps, ctx: SignedInContext, input: TCreateNote): Promise<TNote> {
  const { patientId, noteType, content, status } = input;
  const attachments = [...new Set(input.attachments ?? [])];
  const initial = NOTE_WORKFLOW.initial;
  const move = status !== undefined && status !== initial ? decideNoteMove(ctx, { authorId: ctx.user.id }, initial, status) : null;
  return inTransaction(deps, async (tx, raise) => {
    const patient = await writerOf(tx, ctx, deps.config.now()).patient(patientId);
    if (!patient) throw invalid('patientId', 'Patient is required');
    if (!patient.isActive) throw invalid('patientId', 'Must be an active patient');
    const now = deps.config.now();
    const [row] = await tx
      .insert(patientNotes)
      .values({
        patientId,
        authorId: ctx.user.id,
        noteType,
        content,
        attachments,
        status: move?.to ?? initial,
        ...(move ? stampsOf(move, now, ctx) : {}),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const note = row!;
    await claimObjects(tx, ctx, attachments, { type: 'note', id: note.id }, now);
    await insertRevision(tx, {
      noteId: note.id,
      at: now,
      actorId: ctx.user.id,
      action: 'created',
      toStatus: initial,
      noteTypeAfter: noteType,
      contentAfter: content,
      attachmentsAfter: attachments,
    });
    const audits: AuditEvent[] = [{ action: 'note.create', entityType: 'note', entityId: note.id, patientId }];
    if (move) {
      await insertRevision(tx, { noteId: note.id, at: now, actorId: ctx.user.id, action: 'moved', fromStatus: initial, toStatus: move.to });
      audits.push({ action: `note.${move.to}`, entityType: 'note', entityId: note.id, patientId });
      await noticeMoved(tx, raise, move.to, noticeOf(ctx, note));
    }
    await resolveNotesOwed(tx, raise, { patientId, authorId: ctx.user.id, at: now });
    await recordAudit(tx, ctx, audits);
    return written(tx, ctx, note.id);
  });
}

type TContent = Pick<NoteRow, 'noteType' | 'content' | 'attachments'>;

/** The parts of the note's content the request changes (sent and different). */
function contentChanges(current: NoteRow, input: TUpdateNote): Partial<TContent> {
  const changes: Partial<TContent> = {};
  if (input.noteType !== undefined && input.noteType !== current.noteType) changes.noteType = input.noteType;
  if (input.content !== undefined && input.content !== current.content) changes.content = input.content;
  if (input.attachments !== undefined) {
    const attachments = [...new Set(input.attachments)];
    if (JSON.stringify(attachments) !== JSON.stringify(current.attachments)) changes.attachments = attachments;
  }
  return changes;
}

/** A revision's record of the content that changed: each changed part before and after. */
function beforeAndAfter(current: NoteRow, changes: Partial<TContent>) {
  return {
    ...(changes.noteType !== undefined ? { noteTypeBefore: current.noteType, noteTypeAfter: changes.noteType } : {}),
    ...(changes.content !== undefined ? { contentBefore: current.content, contentAfter: changes.content } : {}),
    ...(changes.attachments !== undefined ? { attachmentsBefore: current.attachments, attachmentsAfter: changes.attachments } : {}),
  };
}

/**
 * Refuses a content change the caller may not make: a finalized note only by amendment (an
 * admin, with a reason); otherwise mayEditNote. The answer says why: 403 for a role that never
 * edits such a note, 409 for one that could have before the note moved on.
 */
function refuseContentChange(ctx: SignedInContext, current: NoteRow, reason: string | undefined): 'edit' | 'amend' {
  if (noteIsLocked(current.status)) {
    if (!can(ctx.user, 'notes.amend')) throw forbidden();
    if (!mayAmendNote(ctx.user, current)) throw new HttpError('workflow.illegalMove', { message: 'This note is locked' });
    if (!reason) throw invalid('amendmentReason', 'A reason is required to amend a finalized note');
    return 'amend';
  }
  if (reason !== undefined) throw invalid('amendmentReason', 'Only an amendment of a finalized note takes a reason');
  if (mayEditNote(ctx.user, current)) return 'edit';
  if (editsNoteAtSomeStatus(ctx.user, current))
    throw new HttpError('workflow.illegalMove', { message: 'This note can no longer be edited in its current status' });
  throw forbidden();
}

/**
 * PUT /api/notes/{id}: content changes, a workflow move, or both, against the version the
 * editor read (`updatedAt`; another is a 409, never an overwrite). Content follows the edit
 * rule (refuseContentChange); a move follows NOTE_WORKFLOW, and the server stamps its fields.
 * Every change writes its revision, with the text before and after; an amendment keeps the
 * finalized text there and marks the note amended. Nothing changed means nothing written.
 */
export async function updateNote(deps: Deps, ctx: SignedInContext, id: string, input: TUpdateNote): Promise<TNote> {
  return inTransaction(deps, async (tx, raise) => {
    const current = await lockNote(tx, id);
    if (!current || !noteVisibleTo(ctx.user, current)) throw notFound(NOT_FOUND);
    if (!(await writerOf(tx, ctx, deps.config.now()).sees(current.patientId))) throw notFound(NOT_FOUND);
    if (input.updatedAt !== undefined && input.updatedAt !== current.updatedAt.toISOString()) throw stale(STALE);

    const changes = contentChanges(current, input);
    const kind = Object.keys(changes).length > 0 || input.amendmentReason !== undefined ? refuseContentChange(ctx, current, input.amendmentReason) : null;
    const move = input.status !== undefined && input.status !== current.status ? decideNoteMove(ctx, current, current.status, input.status) : null;
    if (kind === 'amend' && Object.keys(changes).length === 0) throw invalid('content', 'An amendment changes the note');
    if (!kind && !move) return written(tx, ctx, id);

    // Strictly after the version read, so a second writer holding it is refused even within one millisecond.
    const now = new Date(Math.max(deps.config.now().getTime(), current.updatedAt.getTime() + 1));
    await tx
      .update(patientNotes)
      .set({ ...changes, ...(move ? { status: move.to, ...stampsOf(move, now, ctx) } : {}), ...(kind === 'amend' ? { amendedAt: now } : {}), updatedAt: now })
      .where(eq(patientNotes.id, id));
    if (changes.attachments) await claimObjects(tx, ctx, changes.attachments, { type: 'note', id }, now);

    const audits: AuditEvent[] = [];
    if (kind) {
      await insertRevision(tx, {
        noteId: id,
        at: now,
        actorId: ctx.user.id,
        action: kind === 'amend' ? 'amended' : 'edited',
        fromStatus: current.status,
        toStatus: current.status,
        ...beforeAndAfter(current, changes),
        reason: kind === 'amend' ? input.amendmentReason! : null,
      });
      audits.push({ action: kind === 'amend' ? 'note.amend' : 'note.update', entityType: 'note', entityId: id, patientId: current.patientId });
    }
    if (move) {
      await insertRevision(tx, { noteId: id, at: now, actorId: ctx.user.id, action: 'moved', fromStatus: current.status, toStatus: move.to });
      audits.push({ action: `note.${move.to}`, entityType: 'note', entityId: id, patientId: current.patientId });
    }
    await recordAudit(tx, ctx, audits);
    const notice = noticeOf(ctx, { ...current, ...changes });
    if (move) await noticeMoved(tx, raise, move.to, notice);
    if (kind === 'amend') await noticeAmended(tx, raise, notice);
    return written(tx, ctx, id);
  });
}
