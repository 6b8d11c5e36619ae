import type { TCurrentUser } from '#domain/auth';
import type { TNote, TNoteStatus } from '#domain/notes';
import { patientLabel } from '#domain/record-scope';
import type { TRole } from '#domain/roles';
import { movesFrom, NOTE_WORKFLOW, type TMove } from '#domain/workflows';
import { formatDate, formatTime } from '#domain/clinic-time';

export type TNoteMove = TMove<TNoteStatus, 'scribeId' | 'reviewedAt' | 'finalizedAt'>;

/** The patient as this reader may see them: the name where the server sent it, else 'Patient #' and the id's last four. */
export const notePatientShown = (note: Pick<TNote, 'patientId' | 'patientName'>) => note.patientName ?? patientLabel(note.patientId);

/** 'Mar 4, 2026, 9:30 AM' in the clinic's time zone. */
export const formatNoteTime = (instant: string, timeZone: string) => `${formatDate(instant, timeZone)}, ${formatTime(instant, timeZone)}`;

/**
 * The workflow moves a user may make on a note from its card: forward only ('Submit to Scribe',
 * 'Mark as Reviewed', 'Finalize'). Sending a note back to draft is the form's 'Save Draft'.
 */
export function cardMoves(user: Pick<TCurrentUser, 'id' | 'role'>, note: TNoteMoved): TNoteMove[] {
  return movesFrom(NOTE_WORKFLOW, user, note.status, note).filter((move) => move.to !== 'draft');
}

/** What decides the moves on a note: its status and its author (a nurse submits only her own draft). */
type TNoteMoved = Pick<TNote, 'status' | 'authorId'>;

/** On a card the finalize move reads 'Finalize' (spec section 4); in the form, 'Finalize Note'. */
export const cardMoveLabel = (move: TNoteMove) => (move.to === 'finalized' ? 'Finalize' : move.label);

/** The form's own action next to 'Save Draft': the forward move the user may make on the note (a new one is hers). */
export function formMoves(user: Pick<TCurrentUser, 'id' | 'role'>, note: TNoteMoved | null): TNoteMove[] {
  return cardMoves(user, note ?? { status: 'draft', authorId: user.id });
}

/** Whether 'Save Draft' may be pressed: a new note or a draft, or a note the user may send back to draft. */
export function maySaveDraft(user: Pick<TCurrentUser, 'role'>, status: TNoteStatus | null): boolean {
  return status === null || status === 'draft' || movesFrom(NOTE_WORKFLOW, user, status).some((move) => move.to === 'draft');
}

const ROLE_NAMES: Record<TRole, string> = { admin: 'Admin', scheduler: 'Scheduler', nurse: 'Nurse', scribe: 'Scribe', supplier: 'Supplier' };
export const roleName = (role: TRole) => ROLE_NAMES[role];
