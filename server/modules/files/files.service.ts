import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  ALLOWED_TYPES, FILE_TYPES, MAX_BYTES_OF_OWNER, MAX_UPLOAD_BYTES, objectIdOfPath, objectPathOf, PURPOSE_OF_OWNER, UNCONFIRMED_OBJECT_LIFETIME_MS,
  UPLOAD_URL_LIFETIME_MS, type TFileType, type TObjectOwnerType, type TObjectPath, type TObjectPurpose, type TUploadURL,
} from '#domain/files';
import type { Deps } from '../../deps.ts';
import type { Queryable, Tx } from '../../db/database.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { ObjectTooLargeError, type ByteRange } from '../../storage/storage.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { readOf, type Reading } from '../../scope/reader.ts';
import {
  deleteStoredObject, deleteUnclaimedObject, deleteUploadGrantsExpiredBefore, findUnclaimedBefore, findStoredObject, findStoredObjects, findUnconfirmedBefore, findUploadGrant,
  insertStoredObject, insertUploadGrant, markClaimed, markConfirmed, ownerVisibleTo, useUploadGrant, type StoredObjectRow,
} from './files.queries.ts';
import { sniffType } from './files.sniff.ts';
import { linkIsGenuine, uploadIdOfUrl, uploadLinkOf } from './files.tokens.ts';
import {
  assertUploadBudgetLeft, budgetCutOff, deleteUsageBefore, releaseReservation, reserveUploadBytes, settleReservation, UPLOAD_QUOTA_WINDOW_MS,
  type UploadReservation,
} from './upload-quota.ts';

type FilesDeps = Pick<Deps, 'db' | 'config' | 'files'>;

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
  deps: FilesDeps, id: string, link: { expires: number; signature: string },
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
        id, storageKey: id, sha256, size, declaredType: body.declaredType?.slice(0, 200) ?? null,
        uploaderId: grant.uploaderId, createdAt: deps.config.now(),
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
  deps: FilesDeps, key: string, body: Readable, maxBytes: number, reservation: UploadReservation,
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
  deps: FilesDeps, ctx: SignedInContext, purpose: TObjectPurpose,
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
function typeRefusal(
  purpose: TObjectPurpose, type: TFileType | null, row: StoredObjectRow, input: { fileName?: string; fileSize?: number },
): HttpError | null {
  const allowed = ALLOWED_TYPES[purpose];
  const badType = new HttpError('upload.badType', purpose === 'chat-attachment'
    ? { message: 'Only JPG, PNG, PDF, DOC, DOCX and plain text files are accepted' } : {});
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
    return new HttpError('upload.mismatch', { message: 'The file\'s content is not the type it was uploaded as' });
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

export interface ObjectOwner {
  type: TObjectOwnerType;
  id: string;
}

/**
 * Attaches files to the record `owner`, inside the caller's transaction (the notes and chat
 * services call it with the write that names them). Each path must be a file this user
 * uploaded and confirmed for the owner's purpose and that nothing else claimed; files this
 * owner already has pass unchanged (an update sending back its attachments). Anything else is
 * a 400 naming `field`, and the caller's transaction rolls back.
 */
export async function claimObjects(
  tx: Tx, ctx: Pick<SignedInContext, 'user'>, objectPaths: readonly string[], owner: ObjectOwner, now: Date, field = 'attachments',
): Promise<void> {
  const ids = objectPaths.map((path) => objectIdOfPath(path));
  if (ids.some((id) => id === null)) throw invalid(field, 'Not a file path of this server');
  const unique = [...new Set(ids as string[])];
  const rows = await findStoredObjects(tx, unique);
  const mine = (row: StoredObjectRow) => row.ownerId === owner.id && row.ownerType === owner.type;
  const claimable = (row: StoredObjectRow) => row.ownerId === null && row.confirmedAt !== null
    && row.uploaderId === ctx.user.id && row.purpose === PURPOSE_OF_OWNER[owner.type] && row.size <= MAX_BYTES_OF_OWNER[owner.type];
  if (rows.length !== unique.length || !rows.every((row) => mine(row) || claimable(row))) {
    throw invalid(field, 'A file is unknown, not yours, not confirmed, too large for this record, or attached elsewhere');
  }
  const fresh = rows.filter((row) => !mine(row)).map((row) => row.id);
  if (fresh.length > 0 && (await markClaimed(tx, fresh, owner, now)) !== fresh.length) {
    throw invalid(field, 'A file was attached elsewhere or removed meanwhile');
  }
}

export interface ObjectDownload {
  stream: Readable;
  /** The bytes sent: all of them, or the one range asked for. */
  range: ByteRange | null;
  size: number;
  contentType: TFileType;
  fileName: string | null;
  sha256: string;
}

/**
 * GET <objectPath>: the file, to its uploader while no record claims it, then to whoever may
 * see that record. Anything else (unknown, unconfirmed, out of scope) is the same 404, so ids
 * cannot be probed. Every download is in the audit trail, with the owner's patient.
 */
export const FILE_READS = {
  download: readOf({
    action: 'file.download', entityType: 'object',
    run: async ({ db, deps, scope }: Reading<FilesDeps>, { id, rangeHeader }: { id: string; rangeHeader: string | undefined }) => {
      const row = await findStoredObject(db, id);
      if (!row || !row.confirmedAt || !row.contentType) return null;
      const patientId = await audienceCheck(db, scope, row);
      if (patientId === undefined) return null;
      const range = parseRange(rangeHeader, row.size);
      const download: ObjectDownload = {
        stream: await deps.files.storage.read(row.storageKey, range ?? undefined),
        range, size: row.size, contentType: row.contentType as TFileType, fileName: row.fileName, sha256: row.sha256,
      };
      return { patientId, download };
    },
    shows: ({ patientId }, { id }) => ({ entityId: id, patientId }),
  }),
};

/** The patient of the owner record when the user may see the file (null when none), else undefined. */
async function audienceCheck(q: Queryable, scope: ReadScope, row: StoredObjectRow): Promise<string | null | undefined> {
  if (!row.ownerType || !row.ownerId) return row.uploaderId === scope.viewer.id ? null : undefined;
  const owner = await ownerVisibleTo(q, scope, { type: row.ownerType, id: row.ownerId });
  return owner?.patientId;
}

/**
 * One `bytes=` range (first-last, first-, or -suffix) within the file; anything else (several
 * ranges, one past the end, nonsense) is ignored and the whole file is sent, as HTTP allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match || size === 0 || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1]!, match[2]!];
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start > end || start >= size) return null;
  return { start, end };
}

const CLEANUP_BATCH = 200;

/**
 * Removes uploads nobody confirmed within 24 hours, bytes first (a row without bytes is
 * harmless and goes next time); files confirmed a day ago that no note, message or order
 * claimed (a form abandoned after its upload: no session outlives a day, so nobody can still
 * send it), row first and only while still unclaimed; upload links expired that long; and the
 * hourly quota's rows that have left its hour.
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
  for (;;) {
    const abandoned = await findUnclaimedBefore(deps.db, before, CLEANUP_BATCH);
    let gone = 0;
    for (const row of abandoned) {
      // A claim racing this one wins: the row stays, and so do its bytes.
      if (!(await deleteUnclaimedObject(deps.db, row.id))) continue;
      await deps.files.storage.remove(row.storageKey);
      gone += 1;
    }
    removed += gone;
    if (abandoned.length < CLEANUP_BATCH || gone === 0) break;
  }
  await deleteUploadGrantsExpiredBefore(deps.db, before);
  await deleteUsageBefore(deps.db, new Date(deps.config.now().getTime() - UPLOAD_QUOTA_WINDOW_MS));
  return removed;
}
