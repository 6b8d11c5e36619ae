import type { Readable } from 'node:stream';
import { MAX_BYTES_OF_OWNER, objectIdOfPath, PURPOSE_OF_OWNER, UNCONFIRMED_OBJECT_LIFETIME_MS, type TFileType, type TObjectOwnerType } from '#domain/files';
import type { Deps } from '../../deps.ts';
import type { Queryable, Tx } from '../../db/database.ts';
import { invalid } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import type { ByteRange } from '../../storage/storage.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { readOf, type Reading } from '../../scope/reader.ts';
import {
  deleteUnclaimedObject,
  findStoredObject,
  findStoredObjects,
  findUnclaimedBefore,
  markClaimed,
  ownerVisibleTo,
  type StoredObjectRow,
} from './files.queries.ts';

export type FilesDeps = Pick<Deps, 'db' | 'config' | 'files'>;

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
  tx: Tx,
  ctx: Pick<SignedInContext, 'user'>,
  objectPaths: readonly string[],
  owner: ObjectOwner,
  now: Date,
  field = 'attachments',
): Promise<void> {
  const ids = objectPaths.map((path) => objectIdOfPath(path));
  if (ids.some((id) => id === null)) throw invalid(field, 'Not a file path of this server');
  const unique = [...new Set(ids as string[])];
  const rows = await findStoredObjects(tx, unique);
  const mine = (row: StoredObjectRow) => row.ownerId === owner.id && row.ownerType === owner.type;
  const claimable = (row: StoredObjectRow) =>
    row.ownerId === null &&
    row.confirmedAt !== null &&
    row.uploaderId === ctx.user.id &&
    row.purpose === PURPOSE_OF_OWNER[owner.type] &&
    row.size <= MAX_BYTES_OF_OWNER[owner.type];
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
    action: 'file.download',
    entityType: 'object',
    run: async ({ db, deps, scope }: Reading<FilesDeps>, { id, rangeHeader }: { id: string; rangeHeader: string | undefined }) => {
      const row = await findStoredObject(db, id);
      if (!row || !row.confirmedAt || !row.contentType) return null;
      const patientId = await audienceCheck(db, scope, row);
      if (patientId === undefined) return null;
      const range = parseRange(rangeHeader, row.size);
      const download: ObjectDownload = {
        stream: await deps.files.storage.read(row.storageKey, range ?? undefined),
        range,
        size: row.size,
        contentType: row.contentType as TFileType,
        fileName: row.fileName,
        sha256: row.sha256,
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
 * Removes files confirmed a day ago that no note, message or order claimed (a form abandoned
 * after its upload: no session outlives a day, so nobody can still send it), row first and only
 * while still unclaimed, then its bytes.
 */
export async function removeUnclaimedFiles(deps: FilesDeps): Promise<number> {
  const before = new Date(deps.config.now().getTime() - UNCONFIRMED_OBJECT_LIFETIME_MS);
  let removed = 0;
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
    if (abandoned.length < CLEANUP_BATCH || gone === 0) return removed;
  }
}
