import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { lockDataDir } from '../../db/data-dir-lock.ts';
import { openDatabase, queryRows } from '../../db/database.ts';
import { parseKey } from '../../secrets/key-file.ts';
import { isObjectKey, keyFingerprint } from '../../storage/storage.ts';
import { verifyAuditChain } from '../audit/audit-chain.ts';
import {
  AUDIT_HEAD_KEY_FILE,
  DATABASE_DIR,
  DATABASE_LIST,
  FILES_KEY_FILE,
  KEYS_DIR,
  MANIFEST_FILE,
  OBJECTS_DIR,
  OBJECTS_LIST,
  ZBackupManifest,
  type TBackupManifest,
} from './backup-format.ts';

/** A restore refused before anything was written: the message says what to do. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

export interface RestoreOptions {
  /** The backup's directory (one `clinic-ehr-backup-…`). */
  src: string;
  /** An empty (or new) data directory to restore into. */
  dataDir: string;
  /** FILES_KEY / AUDIT_HEAD_KEY from the environment, when the app takes its keys from there. */
  envKeys: { files: Buffer | undefined; auditHead: Buffer | undefined };
  /** A directory holding `files.key` (and `audit-head.key`): the keys kept apart from the backup. */
  keysFrom?: string | undefined;
}

export interface RestoreResult {
  manifest: TBackupManifest;
  patients: number;
  objects: number;
  /** The audit chain's rows sealed (verified) and still to seal (the app seals them at start). */
  audit: { sealed: number; unsealed: number };
  /** What the operator should know (a key that could not be restored). */
  warnings: string[];
}

const sha256Of = async (file: string) => {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: 8 * 1024 ** 2 }), hash);
  return hash.digest('hex');
};

function readKeyFile(file: string): Buffer | undefined {
  return fs.existsSync(file) ? parseKey(fs.readFileSync(file, 'utf8'), file) : undefined;
}

/**
 * The key for `fingerprint`: from the environment (the app will read it there: nothing to
 * write), else from the backup's own copy or `keysFrom` (written into the data directory, where
 * the app looks when the environment has none). Null when none of them is that key.
 */
function findKey(fingerprint: string, env: Buffer | undefined, files: string[]): { key: Buffer; write: boolean } | null {
  if (env) return keyFingerprint(env) === fingerprint ? { key: env, write: false } : null;
  for (const file of files) {
    const key = readKeyFile(file);
    if (key && keyFingerprint(key) === fingerprint) return { key, write: true };
  }
  return null;
}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

/**
 * Brings a backup back into an empty data directory (`npm run restore`). Everything is checked
 * before anything is written: the manifest, every file's SHA-256, and that the files key at hand
 * is the one the objects were sealed with (without it they could never be read). Then the
 * database is unpacked and opened (which applies the migrations newer code brings), its audit
 * chain verified, and the objects put in place. Database and objects go in under temporary names
 * and are renamed last, so a restore cut off halfway leaves no half a clinic in DATA_DIR.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { src, dataDir } = options;
  const manifest = readManifest(src);
  const pgDir = path.join(dataDir, 'pg');
  if (!isEmptyDir(pgDir) || !isEmptyDir(path.join(dataDir, 'objects')) || fs.existsSync(`${pgDir}.lock`)) {
    throw new RestoreRefused(`${dataDir} already holds a database or files: restore into an empty DATA_DIR (move the old one aside first).`);
  }
  const keys = keysFor(manifest, options);
  const checked = { manifest, keys, database: await checkedDatabaseList(src, manifest), objects: await checkedObjectList(src, manifest) };

  await fs.promises.mkdir(dataDir, { recursive: true, mode: 0o700 });
  // The data directory's lock, from the first write to the last: an app started meanwhile is
  // refused, where it used to seed a new clinic that the restore then lost to (issue 48).
  const unlock = lockDataDir(pgDir);
  try {
    return await writeRestore(options, checked);
  } finally {
    unlock();
  }
}

function readManifest(src: string): TBackupManifest {
  const manifestFile = path.join(src, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) throw new RestoreRefused(`${src} is not a complete backup: it has no ${MANIFEST_FILE}.`);
  const parsed = ZBackupManifest.safeParse(JSON.parse(fs.readFileSync(manifestFile, 'utf8')));
  if (!parsed.success) throw new RestoreRefused(`${manifestFile} is not a manifest this version reads.`);
  return parsed.data;
}

/** The backup's keys at hand: the files key (refused without it), the audit head key if found, and what to warn of. */
function keysFor(manifest: TBackupManifest, options: RestoreOptions) {
  const { src, dataDir } = options;
  const keyFiles = (name: string) => [path.join(src, KEYS_DIR, name), ...(options.keysFrom ? [path.join(options.keysFrom, name)] : [])];
  const files = findKey(manifest.keys.files, options.envKeys.files, keyFiles(FILES_KEY_FILE));
  if (!files) {
    throw new RestoreRefused(
      'The files key of this backup is not at hand, and without it no attachment can be read. ' +
        'Give the directory holding its copy with --keys-from <dir> (a files.key), or set FILES_KEY to it.',
    );
  }
  const auditHead = findKey(manifest.keys.auditHead, options.envKeys.auditHead, keyFiles(AUDIT_HEAD_KEY_FILE));
  const found = [
    [FILES_KEY_FILE, files],
    [AUDIT_HEAD_KEY_FILE, auditHead],
  ] as const;
  for (const [name, key] of found) {
    const present = readKeyFile(path.join(dataDir, name));
    if (present && key?.write && !present.equals(key.key)) {
      throw new RestoreRefused(`${path.join(dataDir, name)} holds another key than this backup's: restore into an empty DATA_DIR.`);
    }
  }
  // A key given but not this backup's is told as such, not as missing (issue 48).
  const offered = options.envKeys.auditHead ?? keyFiles(AUDIT_HEAD_KEY_FILE).map(readKeyFile).find(Boolean);
  const warnings = auditHead
    ? []
    : [
        `${offered ? 'The audit head key at hand is not the one of this backup' : 'The audit head key was not found'}: ` +
          'a new one is made at start, and audit heads saved before this backup can no longer be checked.',
      ];
  return { found, auditHead, warnings };
}

/** The database's directories and files, each file's checksum checked. */
async function checkedDatabaseList(src: string, manifest: TBackupManifest) {
  const entries: { kind: 'dir' | 'file'; relative: string }[] = [];
  for await (const line of readline.createInterface({ input: fs.createReadStream(path.join(src, DATABASE_LIST)), crlfDelay: Infinity })) {
    if (!line) continue;
    const [kind, relative = '', , sha256 = ''] = line.split('\t');
    // Paths inside the engine's directory only: no way out of it, whatever the list says.
    if (relative.split('/').some((part) => part === '' || part === '.' || part === '..'))
      throw new RestoreRefused(`${DATABASE_LIST} names a path outside the database: ${relative}`);
    if (kind === 'dir') entries.push({ kind, relative });
    else if (kind === 'file') {
      if ((await sha256Of(path.join(src, DATABASE_DIR, `${relative}.gz`))) !== sha256)
        throw new RestoreRefused(`The database file ${relative} does not match its checksum: this backup is damaged.`);
      entries.push({ kind, relative });
    } else throw new RestoreRefused(`${DATABASE_LIST} has a line this version does not read.`);
  }
  if (entries.filter((e) => e.kind === 'file').length !== manifest.database.files)
    throw new RestoreRefused(`${DATABASE_LIST} does not list the files the manifest counts: this backup is damaged.`);
  return entries;
}

/** The attachments, each one's checksum checked. */
async function checkedObjectList(src: string, manifest: TBackupManifest) {
  const objects: { relative: string; bytes: number; sha256: string }[] = [];
  for await (const line of readline.createInterface({ input: fs.createReadStream(path.join(src, OBJECTS_LIST)), crlfDelay: Infinity })) {
    if (!line) continue;
    const [relative = '', bytes = '', sha256 = ''] = line.split('\t');
    const [shard = '', key = ''] = relative.split('/');
    if (!isObjectKey(key) || shard !== key.slice(0, 2)) throw new RestoreRefused(`${OBJECTS_LIST} names an object outside the backup: ${relative}`);
    if ((await sha256Of(path.join(src, OBJECTS_DIR, relative))) !== sha256)
      throw new RestoreRefused(`The object ${relative} does not match its checksum: this backup is damaged.`);
    objects.push({ relative, bytes: Number(bytes), sha256 });
  }
  if (objects.length !== manifest.objects.count)
    throw new RestoreRefused(`${OBJECTS_LIST} lists ${objects.length} objects, the manifest ${manifest.objects.count}.`);
  return objects;
}

type TChecked = {
  manifest: TBackupManifest;
  keys: ReturnType<typeof keysFor>;
  database: Awaited<ReturnType<typeof checkedDatabaseList>>;
  objects: Awaited<ReturnType<typeof checkedObjectList>>;
};

/** Writes what was checked, under temporary names renamed last, and opens the database as the app will. */
async function writeRestore(options: RestoreOptions, checked: TChecked): Promise<RestoreResult> {
  const { src, dataDir } = options;
  const [pgDir, objectsDir] = [path.join(dataDir, 'pg'), path.join(dataDir, 'objects')];
  const pgPartial = `${pgDir}.restoring`;
  const objectsPartial = `${objectsDir}.restoring`;
  await fs.promises.rm(pgPartial, { recursive: true, force: true });
  await fs.promises.rm(objectsPartial, { recursive: true, force: true });
  await fs.promises.mkdir(pgPartial, { recursive: true, mode: 0o700 });
  for (const entry of checked.database) {
    const target = path.join(pgPartial, entry.relative);
    if (entry.kind === 'dir') await fs.promises.mkdir(target, { recursive: true, mode: 0o700 });
    else
      await fs.promises.writeFile(target, zlib.gunzipSync(await fs.promises.readFile(path.join(src, DATABASE_DIR, `${entry.relative}.gz`))), { mode: 0o600 });
  }
  const { patients, audit } = await openRestored(pgPartial, checked.keys.auditHead !== null);
  for (const { relative } of checked.objects) {
    await fs.promises.mkdir(path.join(objectsPartial, path.dirname(relative)), { recursive: true, mode: 0o700 });
    await fs.promises.copyFile(path.join(src, OBJECTS_DIR, relative), path.join(objectsPartial, relative));
  }
  for (const [name, found] of checked.keys.found) {
    const file = path.join(dataDir, name);
    if (found?.write && !fs.existsSync(file)) await fs.promises.writeFile(file, `${found.key.toString('base64')}\n`, { mode: 0o600 });
  }
  await fs.promises.rm(pgDir, { recursive: true, force: true });
  await fs.promises.rename(pgPartial, pgDir);
  await fs.promises.rm(objectsDir, { recursive: true, force: true });
  await fs.promises.mkdir(objectsPartial, { recursive: true, mode: 0o700 });
  await fs.promises.rename(objectsPartial, objectsDir);
  return { manifest: checked.manifest, patients, objects: checked.objects.length, audit, warnings: checked.keys.warnings };
}

/**
 * Opens the restored database as the app opens it (the engine replays what the copy's moment
 * left in its log, and the migrations of newer code apply), counts its patients and verifies its
 * audit chain.
 */
async function openRestored(pgDir: string, headKeyFound: boolean): Promise<Pick<RestoreResult, 'patients' | 'audit'>> {
  const database = await openDatabase({ pgliteDir: pgDir });
  try {
    const [counted] = await queryRows<{ patients: number }>(database.db, sql`select count(*)::int as patients from patients`);
    const chain = await verifyAuditChain(database.db);
    if (chain.firstBroken !== null) throw new RestoreRefused(`The restored audit chain is broken at row ${chain.firstBroken.seq}: this backup was altered.`);
    // The app will make a new audit head key: the database must not hold it to the old one's fingerprint.
    if (!headKeyFound) await database.db.execute(sql`delete from key_fingerprints where name = 'audit head key'`);
    return { patients: counted?.patients ?? 0, audit: { sealed: chain.rows, unsealed: chain.unsealed.rows } };
  } finally {
    await database.close();
  }
}
