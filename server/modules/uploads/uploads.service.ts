import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  ALLOWED_TYPES,
  FILE_TYPES,
  MAX_UPLOAD_BYTES,
  objectPathOf,
  UNCONFIRMED_OBJECT_LIFETIME_MS,
  UPLOAD_URL_LIFETIME_MS,
  type TFileType,
  type TObjectPath,
  type TObjectPurpose,
  type TUploadURL,
} from '#domain/files';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { ObjectTooLargeError } from '../../storage/storage.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { findStoredObject, type StoredObjectRow } from '../files/files.queries.ts';
import { removeUnclaimedFiles, type FilesDeps } from '../files/files.service.ts';
import {
  deleteStoredObject,
  deleteUploadGrantsExpiredBefore,
  findUnconfirmedBefore,
  findUploadGrant,
  insertStoredObject,
  insertUploadGrant,
  markConfirmed,
  useUploadGrant,
} from './uploads.queries.ts';
import { sniffType } from './type-sniffing.ts';
import { linkIsGenuine, uploadIdOfUrl, uploadLinkOf } from './signed-links.ts';
import {
  assertUploadBudgetLeft,
  budgetCutOff,
  deleteUsageBefore,
  releaseReservation,
  reserveUploadBytes,
  settleReservation,
  UPLOAD_QUOTA_WINDOW_MS,
  type UploadReservation,
} from './upload-quota.ts';

/**
 * POST /api/objects/upload: a link, on `origin`, that takes one file from this user for 15
 * minutes; 429 once the user's hourly upload budget is spent.
 */
export async function requestUpload(deps: FilesDeps, ctx: SignedInContext, origin: string): Promise<TUploadURL> {
  await assertUploadBudgetLeft(deps, ctx.user.id);
  const now = deps.config.now();
  const grant = { id: randomUUID(), uploaderId: ctx.user.id, expiresAt: new Date(now.getTime() + UPLOAD_URL_LIFETIME_MS) };
  await insertUploadGrant(deps.db, { ...grant, createdAt: now });
  return { uploadURL: `${origin}${uploadLinkOf(deps.files.uploadSigningKey, grant)}` };
}

/**
 * PUT on an upload link: checks the signature, the expiry and that the link is unused, reserves
 * the body's bytes from the uploader's hourly budget (429 before anything is read, and the link
 * stays unspent), then streams the body into storage (counted, hashed, cut off past the limit or
 * the budget, nothing kept then). The link is spent by the first request that gets this far,
 * whatever becomes of its body.
 */
export async function receiveUpload(
  deps: FilesDeps,
  id: string,
  link: { expires: number; signature: string },
  body: { stream: Readable; declaredLength: number | null; declaredType: string | null },
): Promise<{ size: number; sha256: string }> {
  const grant = await findUploadGrant(deps.db, id);
  if (!grant || !linkIsGenuine(deps.files.uploadSigningKey, grant, link)) throw new HttpError('upload.invalid');
  const now = deps.config.now();
  if (grant.expiresAt <= now) throw new HttpError('upload.expired');
  if (grant.usedAt) throw new HttpError('upload.used');
  if (body.declaredLength !== null && body.declaredLength > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES);
  const reservation = await reserveUploadBytes(deps, grant.uploaderId, { declaredLength: body.declaredLength, maxBytes: MAX_UPLOAD_BYTES });
  let stored: { size: number; sha256: string } | undefined;
  try {
    if (!(await useUploadGrant(deps.db, id, now))) throw new HttpError('upload.used');
    stored = await storeWithinBudget(deps, id, body.stream, MAX_UPLOAD_BYTES, reservation);
    const { size, sha256 } = stored;
    await deps.db.transaction(async (tx) => {
      await insertStoredObject(tx, {
        id,
        storageKey: id,
        sha256,
        size,
        declaredType: body.declaredType?.slice(0, 200) ?? null,
        uploaderId: grant.uploaderId,
        createdAt: deps.config.now(),
      });
      await settleReservation(tx, reservation, size);
    });
  } catch (error) {
    if (stored) await deps.files.storage.remove(id);
    await releaseReservation(deps.db, reservation);
    throw error;
  }
  return stored;
}

/**
 * `storeBody` for a body with a reservation: cut off at whichever comes first, `maxBytes` (413)
 * or what the budget left (429, the hourly limit, not the file's, being what stopped it).
 */
export async function storeWithinBudget(
  deps: FilesDeps,
  key: string,
  body: Readable,
  maxBytes: number,
  reservation: UploadReservation,
): Promise<{ size: number; sha256: string }> {
  const cap = Math.min(maxBytes, reservation.bytes);
  try {
    return await storeBody(deps, key, body, cap);
  } catch (error) {
    if (cap < maxBytes && error instanceof HttpError && error.code === 'upload.tooLarge') throw await budgetCutOff(deps, reservation);
    throw error;
  }
}

/** The sizes users see in refusals: '10 MB', '2 GB'. */
export function sizeLabel(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GB` : `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/**
 * Streams a request body into storage under `key`, refusing it the moment it passes `maxBytes`
 * (413) or if the client goes away (400); either way nothing is kept.
 */
export async function storeBody(deps: FilesDeps, key: string, body: Readable, maxBytes: number): Promise<{ size: number; sha256: string }> {
  try {
    return await deps.files.storage.write(key, body, { maxBytes });
  } catch (error) {
    if (error instanceof ObjectTooLargeError) throw tooLarge(maxBytes);
    // The client went away mid-upload: its fault, not the server's, and nothing was kept.
    if (isCutOff(error)) throw new HttpError('request.invalid', { message: 'The upload was cut off before its end' });
    throw error;
  }
}

export const tooLarge = (maxBytes: number) => new HttpError('upload.tooLarge', { message: `File exceeds maximum allowed size of ${sizeLabel(maxBytes)}` });

const isCutOff = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || (error as Error | null)?.message === 'aborted';
};

export const UPLOAD_NOT_FOUND = 'Upload not found';

/**
 * PUT /api/patient-attachments and /api/chat-attachments: the caller's own upload becomes a
 * file for this purpose, once its bytes are found to be an allowed type that agrees with the
 * name and size the caller gave. A refused file is deleted, bytes and row.
 */
export async function confirmUpload(
  deps: FilesDeps,
  ctx: SignedInContext,
  purpose: TObjectPurpose,
  input: { fileURL: string; fileName?: string; fileSize?: number },
): Promise<TObjectPath> {
  const id = uploadIdOfUrl(input.fileURL);
  if (!id) throw invalid('fileURL', 'Not an upload link of this server');
  const row = await findStoredObject(deps.db, id);
  if (!row || row.uploaderId !== ctx.user.id) throw notFound(UPLOAD_NOT_FOUND);
  if (row.confirmedAt) {
    // Confirming twice (a retried request) answers the same; for another purpose it is refused.
    if (row.purpose === purpose && (input.fileName === undefined || input.fileName === row.fileName)) return { objectPath: objectPathOf(id) };
    throw invalid('fileURL', 'This upload was already confirmed');
  }

  const type = await detectType(deps, row);
  const refusal = typeRefusal(purpose, type, row, input);
  if (refusal) {
    await deleteStoredObject(deps.db, id);
    await deps.files.storage.remove(row.storageKey);
    throw refusal;
  }
  const now = deps.config.now();
  await deps.db.transaction(async (tx) => {
    await markConfirmed(tx, id, { purpose, contentType: type, fileName: input.fileName ?? null, confirmedAt: now });
    await recordAudit(tx, ctx, { action: 'file.confirm', entityType: 'object', entityId: id });
  });
  return { objectPath: objectPathOf(id) };
}

const SNIFF_BYTES = 8192;

async function detectType(deps: FilesDeps, row: StoredObjectRow): Promise<TFileType | null> {
  const readRange = async (start: number, end: number) => buffer(await deps.files.storage.read(row.storageKey, { start, end }));
  if (row.size === 0) return null;
  return sniffType({ head: await readRange(0, Math.min(row.size, SNIFF_BYTES) - 1), size: row.size, readRange });
}

/** Why a file may not be confirmed for this purpose, or null when it may. */
function typeRefusal(purpose: TObjectPurpose, type: TFileType | null, row: StoredObjectRow, input: { fileName?: string; fileSize?: number }): HttpError | null {
  const allowed = ALLOWED_TYPES[purpose];
  const badType = new HttpError(
    'upload.badType',
    purpose === 'chat-attachment' ? { message: 'Only JPG, PNG, PDF, DOC, DOCX and plain text files are accepted' } : {},
  );
  if (!type || !allowed.includes(type)) return badType;
  if (input.fileSize !== undefined && input.fileSize !== row.size) {
    return new HttpError('upload.mismatch', { message: `The file is ${row.size} bytes, not ${input.fileSize}` });
  }
  if (input.fileName !== undefined) {
    const name = input.fileName.toLowerCase();
    if (!(FILE_TYPES[type] as readonly string[]).some((extension) => name.endsWith(extension))) {
      return new HttpError('upload.mismatch', { message: `The file's content is not what its name (${extension(name)}) says` });
    }
  }
  if (row.declaredType && !matchesDeclared(row.declaredType, type)) {
    return new HttpError('upload.mismatch', { message: "The file's content is not the type it was uploaded as" });
  }
  return null;
}

const extension = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.')) : 'no extension');

/** Content types that name no type at all, and the common alias of JPEG. */
const UNSPECIFIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-www-form-urlencoded']);
function matchesDeclared(declared: string, type: TFileType): boolean {
  const base = declared.split(';')[0]!.trim().toLowerCase();
  if (UNSPECIFIC_TYPES.has(base)) return true;
  return (base === 'image/jpg' ? 'image/jpeg' : base) === type;
}

const CLEANUP_BATCH = 200;

/**
 * Removes uploads nobody confirmed within 24 hours, bytes first (a row without bytes is
 * harmless and goes next time); then the files confirmed as long ago that no record claimed
 * (files.service.ts); upload links expired that long; and the hourly quota's rows that have
 * left its hour.
 */
export async function removeStaleObjects(deps: FilesDeps): Promise<number> {
  const before = new Date(deps.config.now().getTime() - UNCONFIRMED_OBJECT_LIFETIME_MS);
  let removed = 0;
  for (;;) {
    const stale = await findUnconfirmedBefore(deps.db, before, CLEANUP_BATCH);
    for (const row of stale) {
      await deps.files.storage.remove(row.storageKey);
      await deleteStoredObject(deps.db, row.id);
    }
    removed += stale.length;
    if (stale.length < CLEANUP_BATCH) break;
  }
  removed += await removeUnclaimedFiles(deps);
  await deleteUploadGrantsExpiredBefore(deps.db, before);
  await deleteUsageBefore(deps.db, new Date(deps.config.now().getTime() - UPLOAD_QUOTA_WINDOW_MS));
  return removed;
}
