import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { lastMigrationTag, type Db } from '../../db/database.ts';
import {
  AUDIT_HEAD_KEY_FILE,
  BACKUP_FORMAT,
  DATABASE_FILE,
  FILES_KEY_FILE,
  KEYS_DIR,
  MANIFEST_FILE,
  OBJECTS_DIR,
  OBJECTS_LIST,
  backupName,
  type TBackupManifest,
} from './backup-format.ts';
import { isObjectKey, keyFingerprint } from '../../storage/storage.ts';

/** What a backup is taken from: the running app's embedded database and its files on disk. */
export interface BackupSource {
  db: Db;
  /** The database's files as one tar, taken while no statement runs (PGlite's dumpDataDir). */
  snapshot(): Promise<Blob>;
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

/** A pass-through that hashes and counts what goes by. */
function hashing() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/** Copies one file, returning its size and SHA-256 (read once, for both). */
async function copyHashed(from: string, to: string): Promise<{ bytes: number; sha256: string }> {
  const h = hashing();
  await pipeline(fs.createReadStream(from), h.stream, fs.createWriteStream(to, { flags: 'wx', mode: 0o600 }));
  return h.result();
}

/** The stored objects: `ab/<key>` under the objects directory (local-driver.ts), never `.incoming/`. */
async function* storedObjects(objectsDir: string): AsyncGenerator<{ shard: string; key: string }> {
  const shards = await fs.promises.readdir(objectsDir, { withFileTypes: true }).catch(() => []);
  for (const shard of shards) {
    if (!shard.isDirectory() || shard.name.startsWith('.')) continue;
    for (const key of await fs.promises.readdir(path.join(objectsDir, shard.name))) if (isObjectKey(key)) yield { shard: shard.name, key };
  }
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
 * 2. the database is checkpointed and its files taken in one piece between two statements
 *    (a transaction still open then is absent, as after a crash: every committed write is in);
 * 3. the objects are copied and hashed (one written after the snapshot may be copied too: a file
 *    no row names, harmless, and cleared by the stale-file clean-up after a restore);
 * 4. the manifest is written last and the directory renamed from `.partial` to its name.
 * The keys are left out unless `includeKeys`: docs/production.md says where they belong.
 */
export async function writeBackup(source: BackupSource, dest: string, options: { now: Date; includeKeys: boolean }): Promise<BackupResult> {
  await fs.promises.mkdir(dest, { recursive: true, mode: 0o700 });
  const name = freeName(dest, options.now);
  const partial = path.join(dest, `${name}.partial`);
  await fs.promises.mkdir(partial, { mode: 0o700 });
  const release = source.holdRemovals();
  try {
    const migration = await lastMigrationTag(source.db);
    // Written-back pages make the copy smaller to replay at restore; the WAL alone would do.
    await source.db.execute(sql`checkpoint`);
    const tar = await source.snapshot();
    const h = hashing();
    await pipeline(
      Readable.fromWeb(tar.stream() as import('node:stream/web').ReadableStream),
      zlib.createGzip({ level: 1 }),
      h.stream,
      fs.createWriteStream(path.join(partial, DATABASE_FILE), { flags: 'wx', mode: 0o600 }),
    );
    const database = h.result();

    const objectsOut = path.join(partial, OBJECTS_DIR);
    await fs.promises.mkdir(objectsOut, { mode: 0o700 });
    const list: string[] = [];
    let objectBytes = 0;
    for await (const { shard, key } of storedObjects(source.objectsDir)) {
      await fs.promises.mkdir(path.join(objectsOut, shard), { recursive: true, mode: 0o700 });
      const copied = await copyHashed(path.join(source.objectsDir, shard, key), path.join(objectsOut, shard, key)).catch((error: NodeJS.ErrnoException) => {
        // Only an object written after the snapshot can be gone by now (removals are held).
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!copied) continue;
      list.push(`${shard}/${key}\t${copied.bytes}\t${copied.sha256}`);
      objectBytes += copied.bytes;
    }
    await fs.promises.writeFile(path.join(partial, OBJECTS_LIST), list.length > 0 ? `${list.join('\n')}\n` : '', { mode: 0o600 });

    if (options.includeKeys) {
      await fs.promises.mkdir(path.join(partial, KEYS_DIR), { mode: 0o700 });
      await fs.promises.writeFile(path.join(partial, KEYS_DIR, FILES_KEY_FILE), `${source.keys.files.toString('base64')}\n`, { mode: 0o600 });
      await fs.promises.writeFile(path.join(partial, KEYS_DIR, AUDIT_HEAD_KEY_FILE), `${source.keys.auditHead.toString('base64')}\n`, { mode: 0o600 });
    }
    const manifest: TBackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: options.now.toISOString(),
      migration,
      database,
      objects: { count: list.length, bytes: objectBytes },
      keys: { files: keyFingerprint(source.keys.files), auditHead: keyFingerprint(source.keys.auditHead), included: options.includeKeys },
    };
    await fs.promises.writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const dir = path.join(dest, name);
    await fs.promises.rename(partial, dir);
    return { dir, name, bytes: database.bytes + objectBytes, manifest };
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
