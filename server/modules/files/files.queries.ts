import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TObjectOwnerType } from '#domain/files';
import type { Queryable } from '../../db/database.ts';
import { labOrders, patientNotes } from '../../db/schema/clinical.ts';
import { chatMessages, chatRoomMembers, patientChatRooms } from '../../db/schema/collaboration.ts';
import { objectUploads, storedObjects } from '../../db/schema/files.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

export type StoredObjectRow = typeof storedObjects.$inferSelect;

export async function insertUploadGrant(q: Queryable, grant: typeof objectUploads.$inferInsert): Promise<void> {
  await q.insert(objectUploads).values(grant);
}

export async function findUploadGrant(q: Queryable, id: string) {
  const [row] = await q.select().from(objectUploads).where(eq(objectUploads.id, id));
  return row;
}

/** Marks the grant used, if it still can be: true for exactly one request, however many race. */
export async function useUploadGrant(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q.update(objectUploads).set({ usedAt: now })
    .where(and(eq(objectUploads.id, id), isNull(objectUploads.usedAt), sql`${objectUploads.expiresAt} > ${now}`))
    .returning({ id: objectUploads.id });
  return rows.length === 1;
}

export async function insertStoredObject(q: Queryable, row: typeof storedObjects.$inferInsert): Promise<void> {
  await q.insert(storedObjects).values(row);
}

export async function findStoredObject(q: Queryable, id: string): Promise<StoredObjectRow | undefined> {
  const [row] = await q.select().from(storedObjects).where(eq(storedObjects.id, id));
  return row;
}

export async function findStoredObjects(q: Queryable, ids: string[]): Promise<StoredObjectRow[]> {
  return ids.length === 0 ? [] : q.select().from(storedObjects).where(inArray(storedObjects.id, ids));
}

export async function deleteStoredObject(q: Queryable, id: string): Promise<void> {
  await q.delete(storedObjects).where(eq(storedObjects.id, id));
}

export async function markConfirmed(q: Queryable, id: string, fields: Pick<StoredObjectRow, 'purpose' | 'contentType' | 'fileName' | 'confirmedAt'>): Promise<void> {
  await q.update(storedObjects).set(fields).where(eq(storedObjects.id, id));
}

/** Claims the files still unclaimed; answers how many it claimed (fewer: another got there first, or the clean-up). */
export async function markClaimed(q: Queryable, ids: string[], owner: { type: TObjectOwnerType; id: string }, now: Date): Promise<number> {
  const rows = await q.update(storedObjects).set({ ownerType: owner.type, ownerId: owner.id, claimedAt: now })
    .where(and(inArray(storedObjects.id, ids), isNull(storedObjects.ownerId))).returning({ id: storedObjects.id });
  return rows.length;
}

/** Uploads nobody confirmed before `before`, oldest first. */
export async function findUnconfirmedBefore(q: Queryable, before: Date, limit: number) {
  return q.select({ id: storedObjects.id, storageKey: storedObjects.storageKey }).from(storedObjects)
    .where(and(isNull(storedObjects.confirmedAt), lt(storedObjects.createdAt, before)))
    .orderBy(storedObjects.createdAt).limit(limit);
}

/** Files confirmed before `before` that no record claimed (a form abandoned after its upload). */
export async function findUnclaimedBefore(q: Queryable, before: Date, limit: number) {
  return q.select({ id: storedObjects.id, storageKey: storedObjects.storageKey }).from(storedObjects)
    .where(and(isNull(storedObjects.ownerId), lt(storedObjects.confirmedAt, before)))
    .orderBy(storedObjects.confirmedAt).limit(limit);
}

/** Deletes the row only while nothing claims it: true when it did. */
export async function deleteUnclaimedObject(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.delete(storedObjects).where(and(eq(storedObjects.id, id), isNull(storedObjects.ownerId))).returning({ id: storedObjects.id });
  return rows.length === 1;
}

export async function deleteUploadGrantsExpiredBefore(q: Queryable, before: Date): Promise<void> {
  await q.delete(objectUploads).where(lt(objectUploads.expiresAt, before));
}

/**
 * The owner record of a claimed file, if this user may see it: its patient, or undefined when
 * it is out of the user's scope (or gone). One rule per owner type, each the record's own:
 * - a note: the note scope (domain/record-scope.ts), the same clause every note read uses;
 * - a chat message: an active member of its room, and the message not deleted;
 * - a lab order: whoever may read patient records (`scope.patientNames`), until lab orders have
 *   their own rule.
 */
export async function ownerVisibleTo(q: Queryable, scope: ReadScope, owner: { type: TObjectOwnerType; id: string }): Promise<{ patientId: string } | undefined> {
  if (owner.type === 'note') {
    const [row] = await q.select({ patientId: patientNotes.patientId }).from(patientNotes)
      .where(and(eq(patientNotes.id, owner.id), scope.notes));
    return row;
  }
  if (owner.type === 'chat_message') {
    const [row] = await q.select({ patientId: patientChatRooms.patientId }).from(chatMessages)
      .innerJoin(patientChatRooms, eq(patientChatRooms.id, chatMessages.chatRoomId))
      .innerJoin(chatRoomMembers, and(eq(chatRoomMembers.chatRoomId, chatMessages.chatRoomId),
        eq(chatRoomMembers.userId, scope.viewer.id), eq(chatRoomMembers.isActive, true)))
      .where(and(eq(chatMessages.id, owner.id), eq(chatMessages.isDeleted, false)));
    return row;
  }
  if (!scope.patientNames) return undefined;
  const [row] = await q.select({ patientId: labOrders.patientId }).from(labOrders).where(eq(labOrders.id, owner.id));
  return row;
}
