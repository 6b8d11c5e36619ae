import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { MULTIPART_MAX_PARTS, MULTIPART_MIN_PART_BYTES, UNCONFIRMED_OBJECT_LIFETIME_MS, UPLOAD_URL_LIFETIME_MS, type TUploadedPart } from '#domain/files';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { findStoredObject } from '../files/files.queries.ts';
import { insertStoredObject } from './uploads.queries.ts';
import { storeWithinBudget, tooLarge, UPLOAD_NOT_FOUND } from './uploads.service.ts';
import { partLinkIsGenuine, partLinkOf, UPLOAD_PATH_PREFIX } from './signed-links.ts';
import {
  countOpenUploads,
  deleteMultipartUpload,
  deletePartRows,
  findMultipartUpload,
  findStaleMultipartUploads,
  findStalledUploads,
  insertMultipartUpload,
  listParts,
  putPart,
  setUploadState,
  type MultipartPartRow,
  type MultipartUploadRow,
} from './multipart.queries.ts';
import { assertUploadBudgetLeft, releaseReservation, reserveUploadBytes, settleReservation } from './upload-quota.ts';

/**
 * Large uploads in parts, behind the calls Uppy's AWS S3 plugin makes to a companion (spec
 * section 7). They work the same on both drivers: every part comes to this server on a signed
 * link and is stored as a blob of its own; completion joins them, in order, into one object,
 * which is then confirmed and claimed like any upload (docs/decisions/files.md).
 */
type FilesDeps = Pick<Deps, 'db' | 'config' | 'files'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An open upload that received no part for this long is taken for abandoned (a closed tab, a
 * crashed browser) when its user is at MULTIPART_UPLOADS_PER_USER and starts another: it is
 * dropped then, rather than blocking them for the day the clean-up waits. A part link lives 15
 * minutes, and a part of 5 MiB takes an hour only below 1.5 KB/s.
 */
export const MULTIPART_STALLED_MS = 3_600_000;

/**
 * Starts an upload in parts: 429 once the hourly upload budget is spent, or while the user
 * holds MULTIPART_UPLOADS_PER_USER open ones (counted under a per-user lock, so parallel
 * requests cannot pass the cap together).
 */
export async function createMultipartUpload(
  deps: FilesDeps,
  ctx: SignedInContext,
  input: { filename: string; type?: string | undefined },
): Promise<{ uploadId: string; key: string }> {
  await assertUploadBudgetLeft(deps, ctx.user.id);
  const cap = deps.config.files.multipartUploadsPerUser;
  if ((await countOpenUploads(deps.db, ctx.user.id)) >= cap) await dropStalledUploads(deps, ctx.user.id);
  const now = deps.config.now();
  const row = {
    id: randomUUID(),
    objectId: randomUUID(),
    uploaderId: ctx.user.id,
    fileName: input.filename,
    declaredType: input.type?.slice(0, 200) || null,
    createdAt: now,
    touchedAt: now,
  };
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`multipart-open:${ctx.user.id}`}))`);
    const open = await countOpenUploads(tx, ctx.user.id);
    if (open >= cap) {
      throw new HttpError('quota.multipartOpen', {
        message: `You have ${open} large uploads in progress, the most allowed at once (${cap}). Finish or cancel one before starting another.`,
      });
    }
    await insertMultipartUpload(tx, row);
  });
  return { uploadId: row.id, key: row.objectId };
}

/** This user's uploads stalled for MULTIPART_STALLED_MS go, parts and all, as an abort would. */
async function dropStalledUploads(deps: FilesDeps, userId: string): Promise<void> {
  const before = new Date(deps.config.now().getTime() - MULTIPART_STALLED_MS);
  for (const upload of await findStalledUploads(deps.db, userId, before)) {
    // A part that landed meanwhile keeps it.
    await dropOpenUpload(deps, upload.id, (current) => current.touchedAt >= before);
  }
}

/**
 * Deletes an open upload under its lock, then its parts' bytes. False, with nothing done, when
 * it was completed or removed meanwhile, or `keep` says so of it as it now is.
 */
async function dropOpenUpload(deps: FilesDeps, uploadId: string, keep: (row: MultipartUploadRow) => boolean = () => false): Promise<boolean> {
  const parts = await deps.db.transaction(async (tx) => {
    const current = await findMultipartUpload(tx, uploadId, true);
    if (!current || current.completedAt || keep(current)) return null;
    const received = await listParts(tx, uploadId);
    await deleteMultipartUpload(tx, uploadId);
    return received;
  });
  for (const part of parts ?? []) await deps.files.storage.remove(part.storageKey);
  return parts !== null;
}

/** The caller's own upload that `uploadId` and `key` both name; anything else is the same 404. */
async function ownUpload(deps: FilesDeps, ctx: SignedInContext, uploadId: string, key: string | undefined): Promise<MultipartUploadRow> {
  const row = UUID.test(uploadId) ? await findMultipartUpload(deps.db, uploadId) : undefined;
  if (!row || row.uploaderId !== ctx.user.id || row.objectId !== key) throw notFound(UPLOAD_NOT_FOUND);
  return row;
}

function stillOpen(row: MultipartUploadRow): void {
  if (row.completedAt) throw new HttpError('upload.closed');
}

const asPart = (part: MultipartPartRow): TUploadedPart => ({ PartNumber: part.partNumber, Size: part.size, ETag: `"${part.etag}"` });

export async function listUploadedParts(deps: FilesDeps, ctx: SignedInContext, uploadId: string, key: string | undefined): Promise<TUploadedPart[]> {
  const row = await ownUpload(deps, ctx, uploadId, key);
  stillOpen(row);
  return (await listParts(deps.db, row.id)).map(asPart);
}

/** A link, on `origin`, that takes part `partNumber` of this upload for 15 minutes. */
export async function signPart(
  deps: FilesDeps,
  ctx: SignedInContext,
  input: { uploadId: string; key: string | undefined; partNumber: string },
  origin: string,
): Promise<{ url: string; expires: number }> {
  const partNumber = Number(input.partNumber);
  if (!input.key || !input.uploadId || !Number.isInteger(partNumber) || partNumber < 1 || partNumber > MULTIPART_MAX_PARTS) {
    throw new HttpError('upload.cannotSign');
  }
  const row = await ownUpload(deps, ctx, input.uploadId, input.key);
  stillOpen(row);
  await assertUploadBudgetLeft(deps, ctx.user.id);
  const expiresAt = new Date(deps.config.now().getTime() + UPLOAD_URL_LIFETIME_MS);
  const link = partLinkOf(deps.files.uploadSigningKey, { uploadId: row.id, partNumber, uploaderId: row.uploaderId, expiresAt });
  return { url: `${origin}${link}`, expires: UPLOAD_URL_LIFETIME_MS / 1000 };
}

/**
 * PUT on a part link: checks the signature and the expiry, reserves the part's bytes from the
 * uploader's hourly budget (429 before anything is read), then streams the part into a blob of
 * its own, cut off where the upload as a whole would pass its limit, or the budget its room.
 * Sending a part again replaces it (and counts again: its bytes came again). Answers the part's
 * ETag (its SHA-256).
 */
export async function receivePart(
  deps: FilesDeps,
  uploadId: string,
  partNumber: number,
  link: { expires: number; signature: string },
  body: { stream: Readable; declaredLength: number | null },
): Promise<{ etag: string; size: number }> {
  const upload = UUID.test(uploadId) ? await findMultipartUpload(deps.db, uploadId) : undefined;
  if (!upload || !partLinkIsGenuine(deps.files.uploadSigningKey, { uploadId, partNumber, uploaderId: upload.uploaderId }, link)) {
    throw new HttpError('upload.invalid');
  }
  if (link.expires <= deps.config.now().getTime()) throw new HttpError('upload.expired');
  stillOpen(upload);
  const limit = deps.config.files.largeUploadMaxBytes;
  const room = limit - (await listParts(deps.db, uploadId)).filter((p) => p.partNumber !== partNumber).reduce((sum, p) => sum + p.size, 0);
  if (room <= 0 || (body.declaredLength !== null && body.declaredLength > room)) throw tooLarge(limit);

  const reservation = await reserveUploadBytes(deps, upload.uploaderId, { declaredLength: body.declaredLength, maxBytes: room });
  const storageKey = randomUUID();
  let stored: { size: number; sha256: string };
  try {
    stored = await storeWithinBudget(deps, storageKey, body.stream, room, reservation);
  } catch (error) {
    await releaseReservation(deps.db, reservation);
    // Cut off by the upload's room, not by a part limit: say the upload's limit.
    if (error instanceof HttpError && error.code === 'upload.tooLarge') throw tooLarge(limit);
    throw error;
  }
  // Recorded under the upload's lock: a part that lands as the upload completes or is
  // aborted is dropped, never half-joined.
  let replaced: string | null | undefined;
  try {
    replaced = await deps.db.transaction(async (tx) => {
      const current = await findMultipartUpload(tx, uploadId, true);
      if (!current || current.completedAt) return undefined;
      const old = await putPart(tx, { uploadId, partNumber, storageKey, size: stored.size, etag: stored.sha256 });
      await setUploadState(tx, uploadId, { touchedAt: deps.config.now() });
      await settleReservation(tx, reservation, stored.size);
      return old;
    });
  } catch (error) {
    await deps.files.storage.remove(storageKey);
    await releaseReservation(deps.db, reservation);
    throw error;
  }
  if (replaced === undefined) {
    await deps.files.storage.remove(storageKey);
    await releaseReservation(deps.db, reservation);
    throw new HttpError('upload.closed');
  }
  if (replaced) await deps.files.storage.remove(replaced);
  return { etag: stored.sha256, size: stored.size };
}

const unquoted = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

/** Why the listed parts cannot be joined as they are, or null: the rules S3 applies. */
function partsRefusal(listed: { PartNumber: number; ETag: string }[], received: Map<number, MultipartPartRow>): string | null {
  for (const [i, part] of listed.entries()) {
    if (i > 0 && part.PartNumber <= listed[i - 1]!.PartNumber) return 'Parts must be listed once each, in ascending order';
    const got = received.get(part.PartNumber);
    if (!got || got.etag !== unquoted(part.ETag)) return `Part ${part.PartNumber} was not received with that ETag`;
    if (i < listed.length - 1 && got.size < MULTIPART_MIN_PART_BYTES) return `Part ${part.PartNumber} is smaller than 5 MB and not the last`;
  }
  return null;
}

/**
 * Joins the listed parts, in order, into the upload's object (hashed and sealed like any
 * upload), then drops every part. Answers `location`, the fileURL that confirmation takes. A
 * retried completion answers the same; a failed one leaves the upload open to try again.
 */
export async function completeMultipartUpload(
  deps: FilesDeps,
  ctx: SignedInContext,
  uploadId: string,
  key: string | undefined,
  listed: { PartNumber: number; ETag: string }[],
  origin: string,
): Promise<{ location: string }> {
  const upload = await ownUpload(deps, ctx, uploadId, key);
  const location = `${origin}${UPLOAD_PATH_PREFIX}${upload.objectId}`;
  if (upload.completedAt) {
    // A retry: answered once the first completion has made the file, and not before (the
    // client would confirm a file that is not there yet). 409 is one the widget retries.
    if (await findStoredObject(deps.db, upload.objectId)) return { location };
    throw new HttpError('record.conflict', { message: 'This upload is still being completed; try again in a moment' });
  }
  const received = new Map((await listParts(deps.db, uploadId)).map((part) => [part.partNumber, part]));
  const refusal = partsRefusal(listed, received);
  if (refusal) throw new HttpError('upload.badParts', { message: refusal });
  const chosen = listed.map((part) => received.get(part.PartNumber)!);
  const limit = deps.config.files.largeUploadMaxBytes;
  if (chosen.reduce((sum, part) => sum + part.size, 0) > limit) throw tooLarge(limit);

  // Closes the upload to parts first, under its lock, so what is joined is what was listed.
  const now = deps.config.now();
  await deps.db.transaction(async (tx) => {
    const current = await findMultipartUpload(tx, uploadId, true);
    if (!current || current.completedAt) throw new HttpError('upload.closed');
    await setUploadState(tx, uploadId, { completedAt: now, touchedAt: now });
  });
  const { storage } = deps.files;
  try {
    const joined = Readable.from(
      (async function* () {
        for (const part of chosen) yield* await storage.read(part.storageKey);
      })(),
    );
    const stored = await storage.write(upload.objectId, joined, { maxBytes: limit });
    await insertStoredObject(deps.db, {
      id: upload.objectId,
      storageKey: upload.objectId,
      sha256: stored.sha256,
      size: stored.size,
      declaredType: upload.declaredType,
      uploaderId: upload.uploaderId,
      createdAt: now,
    });
  } catch (error) {
    await storage.remove(upload.objectId);
    await setUploadState(deps.db, uploadId, { completedAt: null });
    throw error;
  }
  await dropParts(deps, uploadId, [...received.values()]);
  return { location };
}

async function dropParts(deps: FilesDeps, uploadId: string, parts: MultipartPartRow[]): Promise<void> {
  for (const part of parts) await deps.files.storage.remove(part.storageKey);
  await deletePartRows(deps.db, uploadId);
}

/** DELETE: the upload and every part received are gone; its links take nothing more. */
export async function abortMultipartUpload(deps: FilesDeps, ctx: SignedInContext, uploadId: string, key: string | undefined): Promise<void> {
  const upload = await ownUpload(deps, ctx, uploadId, key);
  stillOpen(upload);
  if (!(await dropOpenUpload(deps, upload.id))) throw new HttpError('upload.closed');
}

/**
 * Uploads untouched for a day: an abandoned one loses its parts, a completed one its row (the
 * object it made lives on, under the unconfirmed-upload rule).
 */
export async function removeStaleMultipartUploads(deps: FilesDeps, batch: number): Promise<number> {
  const before = new Date(deps.config.now().getTime() - UNCONFIRMED_OBJECT_LIFETIME_MS);
  let removed = 0;
  for (;;) {
    const stale = await findStaleMultipartUploads(deps.db, before, batch);
    for (const upload of stale) {
      await dropParts(deps, upload.id, await listParts(deps.db, upload.id));
      await deleteMultipartUpload(deps.db, upload.id);
    }
    removed += stale.length;
    if (stale.length < batch) return removed;
  }
}
