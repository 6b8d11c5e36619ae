import type { TNoteStatus } from '#domain/notes';
import { findMove, NOTE_WORKFLOW } from '#domain/workflows';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { notify, resolveNotices } from '../notifications/notifications.service.ts';
import { activeUsersWithRoles } from './notes.queries.ts';

/**
 * Who is told about a note's progress, and in which words (docs/decisions/notes.md): whoever
 * may make the note's next move, and its author once it is final. Notices name the note's type
 * and never its text or patient: the note itself is one click away, behind the note scope.
 * Nobody is told of their own action. A notice asks for one stage: when the note moves on (or
 * is amended) every notice about it still active is resolved, for everyone it went to, before
 * the next stage's go out (issue 29: 'ready to be finalized' stayed after it was finalized).
 */
export interface TNoteNotice {
  noteId: string;
  noteType: string;
  authorId: string;
  actorId: string;
  actorName: string;
}

/** Who may make a move is who is told a note waits for it: the workflow table decides, not a list here. */
const rolesOf = (from: TNoteStatus, to: TNoteStatus) => findMove(NOTE_WORKFLOW, from, to)!.roles;

async function tell(
  tx: Queryable,
  raise: Raise,
  userIds: Iterable<string>,
  n: TNoteNotice,
  notice: { type: 'notes_pending' | 'notes_received'; title: string; message: string },
) {
  for (const userId of new Set(userIds)) {
    if (userId !== n.actorId) await notify(tx, raise, { userId, entityId: n.noteId, ...notice });
  }
}

/** The notices about a note: each asks for its stage, or tells its author how it ended. */
const NOTE_NOTICE_TYPES = ['notes_pending', 'notes_received'] as const;

/** The note moved on: what its last stage asked of anyone is done, or moot. */
export const resolveNoteNotices = (tx: Queryable, raise: Raise, noteId: string) => resolveNotices(tx, raise, { entityIds: [noteId], types: NOTE_NOTICE_TYPES });

/**
 * After a move: submitted notifies the scribes; reviewed, those who may finalize (not the author,
 * who has nothing to do with it: issue 29); finalized, the author. Back to draft asks nobody.
 */
export async function noticeMoved(tx: Queryable, raise: Raise, to: TNoteStatus, n: TNoteNotice): Promise<void> {
  await resolveNoteNotices(tx, raise, n.noteId);
  if (to === 'submitted_to_scribe') {
    await tell(tx, raise, await activeUsersWithRoles(tx, rolesOf('submitted_to_scribe', 'reviewed_by_scribe')), n, {
      type: 'notes_pending',
      title: 'Note awaiting review',
      message: `A ${n.noteType} was submitted by ${n.actorName} and waits for review.`,
    });
  } else if (to === 'reviewed_by_scribe') {
    await tell(tx, raise, await activeUsersWithRoles(tx, rolesOf('reviewed_by_scribe', 'finalized')), n, {
      type: 'notes_received',
      title: 'Note reviewed',
      message: `A ${n.noteType} was reviewed by ${n.actorName} and is ready to be finalized.`,
    });
  } else if (to === 'finalized') {
    await tell(tx, raise, [n.authorId], n, { type: 'notes_received', title: 'Note finalized', message: `Your ${n.noteType} was finalized by ${n.actorName}.` });
  }
}

/**
 * A scheduler gave a note waiting for review a scribe ('Add Scribe'): the review is hers now, so
 * the other scribes' 'awaiting review' (and an earlier assignee's notice) is resolved, and she is
 * told, live.
 */
export async function noticeScribeAssigned(tx: Queryable, raise: Raise, n: TNoteNotice & { scribeId: string }): Promise<void> {
  await resolveNotices(tx, raise, { entityIds: [n.noteId], types: ['notes_pending'] });
  await tell(tx, raise, [n.scribeId], n, {
    type: 'notes_pending',
    title: 'Note assigned to you for review',
    message: `${n.actorName} asked you to review a ${n.noteType}. It is in your Pending Review.`,
  });
}

/** An admin amended a finalized note: its author is told (the reason stays in the history). */
export async function noticeAmended(tx: Queryable, raise: Raise, n: TNoteNotice): Promise<void> {
  await resolveNoteNotices(tx, raise, n.noteId);
  await tell(tx, raise, [n.authorId], n, {
    type: 'notes_received',
    title: 'Note amended',
    message: `Your finalized ${n.noteType} was amended by ${n.actorName}. See its history for what changed and why.`,
  });
}
