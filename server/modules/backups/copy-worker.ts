import { Worker } from 'node:worker_threads';

/**
 * The heavy part of a backup, in a worker thread: on the embedded engine the app's event loop
 * also runs every query, so what it does itself, everyone waits for. Measured in bench/backup.ts
 * with ten connections on the patients list: copying as the loop's own asynchronous steps took
 * 121 s for a 159 MB database (each 16 KB of gzip, each 512 KB of a write, waited its turn
 * behind requests), and PGlite's own dump (a tar built on the loop) stalled it long enough that
 * load shedding refused 60% of the requests while backups ran. Here:
 * 1. the engine's files are copied as they are, twice: all of them with the engine running, then
 *    only those changed since, while the caller holds the engine's lock (statements wait for
 *    that short pass, the loop never does), so the copy is the files at one moment;
 * 2. each copied file is gzipped into the backup, listed with its size and the SHA-256 of what was
 *    written, and the objects are copied and hashed the same way.
 * The worker is source text, not a file, so the bundled server (dist/server/index.js, one file)
 * runs it as it is; it needs only Node's own modules.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const crypto = require('node:crypto');
const { pgDir, rawDir, databaseOut, objectsDir, objectsOut, keyPattern } = workerData;
const isKey = new RegExp(keyPattern);
const CHUNK = 8 * 1024 * 1024;
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

// First pass, with the engine running: everything, as it is at each file's turn. A file the
// engine removes meanwhile (a recycled log segment) is skipped: the second pass settles it.
const gone = (error) => error.code === 'ENOENT';
function copyTree(relative) {
  fs.mkdirSync(path.join(rawDir, relative), { recursive: true, mode: 0o700 });
  let entries;
  try {
    entries = fs.readdirSync(path.join(pgDir, relative), { withFileTypes: true });
  } catch (error) {
    if (gone(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const rel = path.join(relative, entry.name);
    if (entry.isDirectory()) copyTree(rel);
    else if (entry.isFile()) {
      try {
        fs.copyFileSync(path.join(pgDir, rel), path.join(rawDir, rel));
      } catch (error) {
        if (!gone(error)) throw error;
      }
    }
  }
}
const started = Date.now();
copyTree('');
parentPort.postMessage({ phase: 'prepared' });

/**
 * Second pass, with the engine's lock held: what the first pass may have caught mid-change. A
 * file last changed before the first pass began (less two seconds, for the clock's coarse ticks)
 * and not since is already right; every other one (changed since, new, or gone) is made so.
 */
function resync(relative, since) {
  const seen = new Set();
  for (const entry of fs.readdirSync(path.join(pgDir, relative), { withFileTypes: true })) {
    seen.add(entry.name);
    const rel = path.join(relative, entry.name);
    const from = path.join(pgDir, rel);
    const to = path.join(rawDir, rel);
    if (entry.isDirectory()) {
      fs.mkdirSync(to, { recursive: true, mode: 0o700 });
      resync(rel, since);
    } else if (entry.isFile()) {
      const stat = fs.statSync(from);
      const copied = fs.statSync(to, { throwIfNoEntry: false });
      if (!copied || stat.mtimeMs >= since || copied.size !== stat.size) fs.copyFileSync(from, to);
    }
  }
  for (const name of fs.readdirSync(path.join(rawDir, relative))) {
    if (!seen.has(name)) fs.rmSync(path.join(rawDir, relative, name), { recursive: true, force: true });
  }
}

parentPort.once('message', () => {
  resync('', started - 2000);
  parentPort.postMessage({ phase: 'copied' });
  finish();
});

function finish() {

// Every directory (the engine needs its empty ones too) and every file, gzipped.
const database = [];
let databaseBytes = 0;
function pack(relative) {
  for (const entry of fs.readdirSync(path.join(rawDir, relative), { withFileTypes: true })) {
    const rel = relative ? relative + '/' + entry.name : entry.name;
    if (entry.isDirectory()) {
      fs.mkdirSync(path.join(databaseOut, rel), { mode: 0o700 });
      database.push('dir\\t' + rel);
      pack(rel);
    } else if (entry.isFile()) {
      const raw = fs.readFileSync(path.join(rawDir, rel));
      const packed = zlib.gzipSync(raw, { level: 1 });
      fs.writeFileSync(path.join(databaseOut, rel + '.gz'), packed, { flag: 'wx', mode: 0o600 });
      database.push('file\\t' + rel + '\\t' + raw.length + '\\t' + sha256(packed));
      databaseBytes += packed.length;
    }
  }
}
fs.mkdirSync(databaseOut, { mode: 0o700 });
pack('');
fs.rmSync(rawDir, { recursive: true, force: true });

/** Copies one object and hashes it on the way; null when it is gone (written after the copy of the database, then removed). */
function copyHashed(from, to) {
  let input;
  try {
    input = fs.openSync(from, 'r');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
  const output = fs.openSync(to, 'wx', 0o600);
  const hash = crypto.createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK);
  let bytes = 0;
  try {
    for (let n; (n = fs.readSync(input, buffer, 0, CHUNK, null)) > 0; ) {
      hash.update(buffer.subarray(0, n));
      for (let written = 0; written < n; ) written += fs.writeSync(output, buffer, written, n - written);
      bytes += n;
    }
  } finally {
    fs.closeSync(input);
    fs.closeSync(output);
  }
  return { bytes, sha256: hash.digest('hex') };
}

const objects = [];
let objectBytes = 0;
fs.mkdirSync(objectsOut, { mode: 0o700 });
const shards = fs.existsSync(objectsDir) ? fs.readdirSync(objectsDir, { withFileTypes: true }) : [];
for (const shard of shards) {
  if (!shard.isDirectory() || shard.name.startsWith('.')) continue;
  fs.mkdirSync(path.join(objectsOut, shard.name), { recursive: true, mode: 0o700 });
  for (const key of fs.readdirSync(path.join(objectsDir, shard.name))) {
    if (!isKey.test(key)) continue;
    const copied = copyHashed(path.join(objectsDir, shard.name, key), path.join(objectsOut, shard.name, key));
    if (!copied) continue;
    objects.push(shard.name + '/' + key + '\\t' + copied.bytes + '\\t' + copied.sha256);
    objectBytes += copied.bytes;
  }
}
objects.sort();
parentPort.postMessage({ phase: 'done', database, databaseBytes, objects, objectBytes });
}
`;

export interface CopyJob {
  /** The engine's files (DATA_DIR/pg). */
  pgDir: string;
  /** Where they are copied as they are, briefly (inside the backup being written). */
  rawDir: string;
  /** Where they go gzipped, one `.gz` per file. */
  databaseOut: string;
  objectsDir: string;
  objectsOut: string;
  /** Which file names are objects (object-key.ts). */
  keyPattern: string;
}

export interface CopyResult {
  /** `dir\t<path>` and `file\t<path>\t<bytes>\t<sha256 of its .gz>`, in the order written. */
  database: string[];
  databaseBytes: number;
  /** `ab/<key>\t<bytes>\t<sha256>`, sorted. */
  objects: string[];
  objectBytes: number;
}

type Deferred = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };
function deferred(): Deferred {
  let settle!: Pick<Deferred, 'resolve' | 'reject'>;
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Whoever waits for `done` hears a failure; these must not also be unhandled ones.
  promise.catch(() => {});
  return { promise, ...settle };
}

/**
 * Starts the copy. `prepared` settles after the first pass over the engine's files (the engine
 * running); then the caller takes the engine's lock and calls `finishCopy`, which settles once
 * the second pass has made the copy exact (the caller then lets the engine go on); `done` once
 * everything is in the backup.
 */
export function runCopyWorker(job: CopyJob): { prepared: Promise<void>; finishCopy: () => Promise<void>; done: Promise<CopyResult> } {
  const prepared = deferred();
  const copied = deferred();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job });
  const done = new Promise<CopyResult>((resolve, reject) => {
    let result: CopyResult | undefined;
    worker.on('message', (message: { phase: 'prepared' | 'copied' } | ({ phase: 'done' } & CopyResult)) => {
      if (message.phase === 'prepared') prepared.resolve();
      else if (message.phase === 'copied') copied.resolve();
      else if (message.phase === 'done') result = message;
    });
    const fail = (error: unknown) => {
      prepared.reject(error);
      copied.reject(error);
      reject(error);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => (result ? resolve(result) : fail(new Error(`the backup's copy stopped (exit code ${code})`))));
  });
  // A copy that fails before its caller waits for `done` (the disk filled during the first pass,
  // so `prepared` failed first) must not end the process as an unhandled rejection (issue 48):
  // the caller hears it from `prepared` or `copied`.
  done.catch(() => {});
  const finishCopy = () => {
    worker.postMessage('locked');
    return copied.promise;
  };
  return { prepared: prepared.promise, finishCopy, done };
}
