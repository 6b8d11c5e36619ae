import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { objectUploads, storedObjects } from '../../db/schema/files.ts';
import type { StoredObjectRow } from '../files/files.queries.ts';

export async function insertUploadGrant(q: Queryable, grant: typeof objectUploads.$inferInsert): Promise<void> {
  await q.insert(objectUploads).values(grant);
}

export async function findUploadGrant(q: Queryable, id: string) {
  const [row] = await q.select().from(objectUploads).where(eq(objectUploads.id, id));
  return row;
}

/** Marks the grant used, if it still can be: true for exactly one request, however many race. */
export async function useUploadGrant(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q
    .update(objectUploads)
    .set({ usedAt: now })
    .where(and(eq(objectUploads.id, id), isNull(objectUploads.usedAt), sql`${objectUploads.expiresAt} > ${now}`))
    .returning({ id: objectUploads.id });
  return rows.length === 1;
}

export async function insertStoredObject(q: Queryable, row: typeof storedObjects.$inferInsert): Promise<void> {
  await q.insert(storedObjects).values(row);
}

export async function deleteStoredObject(q: Queryable, id: string): Promise<void> {
  await q.delete(storedObjects).where(eq(storedObjects.id, id));
}

export async function markConfirmed(
  q: Queryable,
  id: string,
  fields: Pick<StoredObjectRow, 'purpose' | 'contentType' | 'fileName' | 'confirmedAt'>,
): Promise<void> {
  await q.update(storedObjects).set(fields).where(eq(storedObjects.id, id));
}

/** Uploads nobody confirmed before `before`, oldest first. */
export async function findUnconfirmedBefore(q: Queryable, before: Date, limit: number) {
  return q
    .select({ id: storedObjects.id, storageKey: storedObjects.storageKey })
    .from(storedObjects)
    .where(and(isNull(storedObjects.confirmedAt), lt(storedObjects.createdAt, before)))
    .orderBy(storedObjects.createdAt)
    .limit(limit);
}

export async function deleteUploadGrantsExpiredBefore(q: Queryable, before: Date): Promise<void> {
  await q.delete(objectUploads).where(lt(objectUploads.expiresAt, before));
}
