import fs from 'node:fs';
import path from 'node:path';
import { lastMigrationTag, type Database, type Db } from '../../db/database.ts';
import {
  AUDIT_HEAD_KEY_FILE,
  BACKUP_FORMAT,
  DATABASE_DIR,
  DATABASE_LIST,
  FILES_KEY_FILE,
  KEYS_DIR,
  MANIFEST_FILE,
  OBJECTS_DIR,
  OBJECTS_LIST,
  backupName,
  type TBackupManifest,
} from './backup-format.ts';
import { OBJECT_KEY_PATTERN, keyFingerprint } from '../../storage/storage.ts';
import { runCopyWorker } from './copy-worker.ts';

/** What a backup is taken from: the running app's embedded database and its files on disk. */
export interface BackupSource {
  db: Db;
  /** The engine's files, and a way to work on them while no statement runs (database.ts). */
  files: NonNullable<Database['files']>;
  /** DATA_DIR/objects: the encrypted attachments. */
  objectsDir: string;
  /** Defers object removals while the objects are copied (storage.ts). */
  holdRemovals(): () => Promise<void>;
  keys: { files: Buffer; auditHead: Buffer };
}

export interface BackupResult {
  /** The backup's directory. */
  dir: string;
  name: string;
  /** Bytes written in all. */
  bytes: number;
  manifest: TBackupManifest;
}

/** A name not taken yet in `dest` (two backups in one second get `-2`, `-3`). */
function freeName(dest: string, at: Date): string {
  const base = backupName(at);
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!fs.existsSync(path.join(dest, name)) && !fs.existsSync(path.join(dest, `${name}.partial`))) return name;
  }
}

/**
 * Writes a consistent backup into a new directory under `dest`, while the app keeps running:
 * 1. object removals are held, so every object the database names stays on disk until copied;
 * 2. the database's files are copied as they are at one moment between two statements (a
 *    transaction still open then is absent, as after a crash: every committed write is in);
 * 3. in a worker thread (copy-worker.ts), they are gzipped into the backup and listed with their
 *    checksums, and the objects are copied and hashed (one written after the snapshot may be copied too: a file
 *    no row names, harmless, and cleared by the stale-file clean-up after a restore);
 * 4. the manifest is written last and the directory renamed from `.partial` to its name.
 * The keys are left out unless `includeKeys`: docs/production.md says where they belong.
 */
export async function writeBackup(source: BackupSource, dest: string, options: { now: Date; includeKeys: boolean; create?: boolean }): Promise<BackupResult> {
  // A destination that is not there is most often a backup disk that is not mounted: writing
  // there would fill the disk the data is on, and call that a backup (issue 48).
  if (options.create) await fs.promises.mkdir(dest, { recursive: true, mode: 0o700 });
  else if (!fs.statSync(dest, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(
      `The backup directory ${dest} does not exist (is its disk mounted?). Create it, or ask for it to be created (npm run backup -- <dir> --create).`,
    );
  }
  const name = freeName(dest, options.now);
  const partial = path.join(dest, `${name}.partial`);
  await fs.promises.mkdir(partial, { mode: 0o700 });
  const release = source.holdRemovals();
  try {
    const migration = await lastMigrationTag(source.db);
    const copy = runCopyWorker({
      pgDir: source.files.dir,
      rawDir: path.join(partial, 'database.raw'),
      databaseOut: path.join(partial, DATABASE_DIR),
      objectsDir: source.objectsDir,
      objectsOut: path.join(partial, OBJECTS_DIR),
      keyPattern: OBJECT_KEY_PATTERN,
    });
    // The engine's files are copied once while it serves, then made exact between two statements.
    await copy.prepared;
    await source.files.whileIdle(() => copy.finishCopy());
    const { database, databaseBytes, objects, objectBytes } = await copy.done;
    const lines = (list: string[]) => (list.length > 0 ? `${list.join('\n')}\n` : '');
    await fs.promises.writeFile(path.join(partial, DATABASE_LIST), lines(database), { mode: 0o600 });
    await fs.promises.writeFile(path.join(partial, OBJECTS_LIST), lines(objects), { mode: 0o600 });
    const list = objects;

    if (options.includeKeys) {
      await fs.promises.mkdir(path.join(partial, KEYS_DIR), { mode: 0o700 });
      await fs.promises.writeFile(path.join(partial, KEYS_DIR, FILES_KEY_FILE), `${source.keys.files.toString('base64')}\n`, { mode: 0o600 });
      await fs.promises.writeFile(path.join(partial, KEYS_DIR, AUDIT_HEAD_KEY_FILE), `${source.keys.auditHead.toString('base64')}\n`, { mode: 0o600 });
    }
    const manifest: TBackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: options.now.toISOString(),
      migration,
      database: { files: database.filter((l) => l.startsWith('file\t')).length, bytes: databaseBytes },
      objects: { count: list.length, bytes: objectBytes },
      keys: { files: keyFingerprint(source.keys.files), auditHead: keyFingerprint(source.keys.auditHead), included: options.includeKeys },
    };
    await fs.promises.writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const dir = path.join(dest, name);
    await fs.promises.rename(partial, dir);
    return { dir, name, bytes: databaseBytes + objectBytes, manifest };
  } catch (error) {
    await fs.promises.rm(partial, { recursive: true, force: true });
    throw error;
  } finally {
    await release();
  }
}

/** Deletes the oldest complete backups in `dir` beyond the newest `keep` (only directories this app named). */
export async function pruneBackups(dir: string, keep: number, isBackup: (name: string) => boolean): Promise<string[]> {
  const names = (await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory() && isBackup(e.name) && fs.existsSync(path.join(dir, e.name, MANIFEST_FILE)))
    .map((e) => e.name)
    .sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
  return old;
}
