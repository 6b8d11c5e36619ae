import { and, asc, count, eq, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { multipartParts, multipartUploads } from '../../db/schema/files.ts';

export type MultipartUploadRow = typeof multipartUploads.$inferSelect;
export type MultipartPartRow = typeof multipartParts.$inferSelect;

export async function insertMultipartUpload(q: Queryable, row: typeof multipartUploads.$inferInsert): Promise<void> {
  await q.insert(multipartUploads).values(row);
}

/** The upload, locked against a concurrent part or completion when `lock` is set (in a transaction). */
export async function findMultipartUpload(q: Queryable, id: string, lock = false): Promise<MultipartUploadRow | undefined> {
  const query = q.select().from(multipartUploads).where(eq(multipartUploads.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function listParts(q: Queryable, uploadId: string): Promise<MultipartPartRow[]> {
  return q.select().from(multipartParts).where(eq(multipartParts.uploadId, uploadId)).orderBy(asc(multipartParts.partNumber));
}

/** Records a part, replacing one of the same number; gives back the replaced part's blob key. */
export async function putPart(q: Queryable, part: MultipartPartRow): Promise<string | null> {
  const [old] = await q
    .select({ storageKey: multipartParts.storageKey })
    .from(multipartParts)
    .where(and(eq(multipartParts.uploadId, part.uploadId), eq(multipartParts.partNumber, part.partNumber)));
  await q
    .insert(multipartParts)
    .values(part)
    .onConflictDoUpdate({
      target: [multipartParts.uploadId, multipartParts.partNumber],
      set: { storageKey: part.storageKey, size: part.size, etag: part.etag },
    });
  return old?.storageKey ?? null;
}

export async function setUploadState(q: Queryable, id: string, fields: Partial<Pick<MultipartUploadRow, 'touchedAt' | 'completedAt'>>): Promise<void> {
  await q.update(multipartUploads).set(fields).where(eq(multipartUploads.id, id));
}

export async function deletePartRows(q: Queryable, uploadId: string): Promise<void> {
  await q.delete(multipartParts).where(eq(multipartParts.uploadId, uploadId));
}

export async function deleteMultipartUpload(q: Queryable, id: string): Promise<void> {
  await q.delete(multipartUploads).where(eq(multipartUploads.id, id));
}

/** Uploads untouched since `before`: abandoned open ones, and completed ones done with. */
export async function findStaleMultipartUploads(q: Queryable, before: Date, limit: number): Promise<MultipartUploadRow[]> {
  return q.select().from(multipartUploads).where(lt(multipartUploads.touchedAt, before)).orderBy(asc(multipartUploads.touchedAt)).limit(limit);
}

/** How many uploads this user has open: neither completed nor aborted (an aborted one is gone). */
export async function countOpenUploads(q: Queryable, uploaderId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(multipartUploads)
    .where(and(eq(multipartUploads.uploaderId, uploaderId), isNull(multipartUploads.completedAt)));
  return row?.n ?? 0;
}

/** This user's open uploads untouched since `before` (no part received since). */
export async function findStalledUploads(q: Queryable, uploaderId: string, before: Date): Promise<MultipartUploadRow[]> {
  return q
    .select()
    .from(multipartUploads)
    .where(and(eq(multipartUploads.uploaderId, uploaderId), isNull(multipartUploads.completedAt), lt(multipartUploads.touchedAt, before)));
}
