import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TObjectOwnerType } from '#domain/files';
import type { Queryable } from '../../db/database.ts';
import { labOrders, patientNotes } from '../../db/schema/clinical.ts';
import { chatMessages, chatRoomMembers, patientChatRooms } from '../../db/schema/collaboration.ts';
import { storedObjects } from '../../db/schema/files.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

export type StoredObjectRow = typeof storedObjects.$inferSelect;

export async function findStoredObject(q: Queryable, id: string): Promise<StoredObjectRow | undefined> {
  const [row] = await q.select().from(storedObjects).where(eq(storedObjects.id, id));
  return row;
}

export async function findStoredObjects(q: Queryable, ids: string[]): Promise<StoredObjectRow[]> {
  return ids.length === 0 ? [] : q.select().from(storedObjects).where(inArray(storedObjects.id, ids));
}

/** Claims the files still unclaimed; answers how many it claimed (fewer: another got there first, or the clean-up). */
export async function markClaimed(q: Queryable, ids: string[], owner: { type: TObjectOwnerType; id: string }, now: Date): Promise<number> {
  const rows = await q
    .update(storedObjects)
    .set({ ownerType: owner.type, ownerId: owner.id, claimedAt: now })
    .where(and(inArray(storedObjects.id, ids), isNull(storedObjects.ownerId)))
    .returning({ id: storedObjects.id });
  return rows.length;
}

/** Files confirmed before `before` that no record claimed (a form abandoned after its upload). */
export async function findUnclaimedBefore(q: Queryable, before: Date, limit: number) {
  return q
    .select({ id: storedObjects.id, storageKey: storedObjects.storageKey })
    .from(storedObjects)
    .where(and(isNull(storedObjects.ownerId), lt(storedObjects.confirmedAt, before)))
    .orderBy(storedObjects.confirmedAt)
    .limit(limit);
}

/** Deletes the row only while nothing claims it: true when it did. */
export async function deleteUnclaimedObject(q: Queryable, id: string): Promise<boolean> {
  const rows = await q
    .delete(storedObjects)
    .where(and(eq(storedObjects.id, id), isNull(storedObjects.ownerId)))
    .returning({ id: storedObjects.id });
  return rows.length === 1;
}

/**
 * The owner record of a claimed file, if this user may see it: its patient, or undefined when
 * it is out of the user's scope (or gone). One rule per owner type, each the record's own:
 * - a note: the note scope (domain/record-scope.ts), the same clause every note read uses;
 * - a chat message: an active member of its room, and the message not deleted;
 * - and always: a patient the reader sees (a restricted one's files are not there for others);
 * - a lab order: whoever may read patient records (`scope.patientNames`), until lab orders have
 *   their own rule.
 */
export async function ownerVisibleTo(
  q: Queryable,
  scope: ReadScope,
  owner: { type: TObjectOwnerType; id: string },
): Promise<{ patientId: string } | undefined> {
  if (owner.type === 'note') {
    const [row] = await q
      .select({ patientId: patientNotes.patientId })
      .from(patientNotes)
      .where(and(eq(patientNotes.id, owner.id), scope.notes));
    return row;
  }
  if (owner.type === 'chat_message') {
    const [row] = await q
      .select({ patientId: patientChatRooms.patientId })
      .from(chatMessages)
      .innerJoin(patientChatRooms, eq(patientChatRooms.id, chatMessages.chatRoomId))
      .innerJoin(
        chatRoomMembers,
        and(eq(chatRoomMembers.chatRoomId, chatMessages.chatRoomId), eq(chatRoomMembers.userId, scope.viewer.id), eq(chatRoomMembers.isActive, true)),
      )
      .where(and(eq(chatMessages.id, owner.id), eq(chatMessages.isDeleted, false), scope.patientSeen(sql`${patientChatRooms.patientId}`)));
    return row;
  }
  // A lab order's report: for those who read lab orders (scope.labOrders), as the order itself is.
  const [row] = await q
    .select({ patientId: labOrders.patientId })
    .from(labOrders)
    .where(and(eq(labOrders.id, owner.id), scope.labOrders));
  return row;
}
