import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { RECORD_BYTES } from '../../server/storage/encrypted-records.ts';
import { loadOrCreateFilesKey } from '../../server/storage/files-key.ts';
import { createLocalStorage } from '../../server/storage/local-driver.ts';
import { CorruptObjectError, ObjectTooLargeError } from '../../server/storage/storage.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-storage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const filesKey = randomBytes(32);
const storage = createLocalStorage({ dir: path.join(dir, 'objects'), filesKey });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fileOf = (key: string) => path.join(dir, 'objects', key.slice(0, 2), key);
const read = async (key: string, range?: { start: number; end: number }) => buffer(await storage.read(key, range));

/** Delivers a buffer in uneven chunks, as a network would. */
const chunked = (bytes: Buffer) => Readable.from((function* () {
  for (let at = 0; at < bytes.length; at += 7_777) yield bytes.subarray(at, at + 7_777);
})());

describe('the local driver', () => {
  it.each([0, 1, RECORD_BYTES - 1, RECORD_BYTES, RECORD_BYTES + 1, 3 * RECORD_BYTES + 123])(
    'stores %i bytes encrypted and gives the same bytes back, with their size and SHA-256',
    async (n) => {
      const bytes = randomBytes(n);
      const key = randomUUID();
      expect(await storage.write(key, chunked(bytes), { maxBytes: 10_000_000 })).toEqual({ size: n, sha256: sha(bytes) });
      expect(await read(key)).toEqual(bytes);
      const onDisk = fs.readFileSync(fileOf(key));
      expect(onDisk.subarray(0, 4).toString()).toBe('EHRO');
      if (n > 16) expect(onDisk.includes(bytes.subarray(0, 16))).toBe(false);
      expect(fs.statSync(fileOf(key)).mode & 0o777).toBe(0o600);
    },
  );

  it('reads any range, across record boundaries', async () => {
    const bytes = randomBytes(3 * RECORD_BYTES + 500);
    const key = randomUUID();
    await storage.write(key, Readable.from([bytes]), { maxBytes: 10_000_000 });
    for (const [start, end] of [[0, 0], [10, 20], [RECORD_BYTES - 2, RECORD_BYTES + 2], [RECORD_BYTES, 2 * RECORD_BYTES - 1], [5, bytes.length - 1], [bytes.length - 1, bytes.length - 1]] as const) {
      expect(await read(key, { start, end }), `${start}-${end}`).toEqual(bytes.subarray(start, end + 1));
    }
  });

  it('cuts off a body above the limit and keeps nothing of it', async () => {
    const key = randomUUID();
    await expect(storage.write(key, chunked(randomBytes(200_001)), { maxBytes: 200_000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(fs.existsSync(fileOf(key))).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'objects', '.incoming'))).toEqual([]);
  });

  it('refuses to release bytes of a changed, cut-off or swapped file', async () => {
    const bytes = randomBytes(2 * RECORD_BYTES + 10);
    const [a, b] = [randomUUID(), randomUUID()];
    await storage.write(a, Readable.from([bytes]), { maxBytes: 10_000_000 });
    await storage.write(b, Readable.from([bytes]), { maxBytes: 10_000_000 });
    const original = fs.readFileSync(fileOf(a));

    const flipped = Buffer.from(original);
    flipped[100]! ^= 1;
    fs.writeFileSync(fileOf(a), flipped);
    await expect(read(a)).rejects.toBeInstanceOf(CorruptObjectError);

    // Cut at a record boundary: the record now last was not sealed as the last.
    fs.writeFileSync(fileOf(a), original.subarray(0, 16 + 2 * (RECORD_BYTES + 28)));
    await expect(read(a)).rejects.toBeInstanceOf(CorruptObjectError);

    // Another object's file under this key.
    fs.copyFileSync(fileOf(b), fileOf(a));
    await expect(read(a)).rejects.toBeInstanceOf(CorruptObjectError);
  });

  it('never takes a key that is not an object id', async () => {
    await expect(storage.write('../../etc/passwd', Readable.from([Buffer.from('x')]), { maxBytes: 10 })).rejects.toThrow(/Not an object key/);
    await expect(storage.read('../files.key')).rejects.toThrow(/Not an object key/);
    await expect(storage.remove('..')).rejects.toThrow(/Not an object key/);
  });

  it('removes an object, and removing it again is fine', async () => {
    const key = randomUUID();
    await storage.write(key, Readable.from([Buffer.from('hello')]), { maxBytes: 10 });
    await storage.remove(key);
    await storage.remove(key);
    expect(fs.existsSync(fileOf(key))).toBe(false);
  });
});

describe('the files key', () => {
  it('is created on first start, readable by the app user only, and the same afterwards', () => {
    const keyFile = path.join(dir, 'data', 'files.key');
    const first = loadOrCreateFilesKey(undefined, keyFile);
    expect(first).toHaveLength(32);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(loadOrCreateFilesKey(undefined, keyFile)).toEqual(first);
  });

  it('comes from FILES_KEY when set, and a malformed one stops the app with a clear message', () => {
    const key = randomBytes(32);
    expect(loadConfig({ FILES_KEY: key.toString('base64') }).files.key).toEqual(key);
    expect(() => loadConfig({ FILES_KEY: randomBytes(16).toString('base64') })).toThrow(/FILES_KEY must be 32 random bytes in base64/);
    expect(() => loadConfig({ FILES_KEY: 'not base64!' })).toThrow(/FILES_KEY must be 32 random bytes/);
  });

  it('a key file that is not a key stops the app rather than being replaced', () => {
    const keyFile = path.join(dir, 'bad', 'files.key');
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, 'short');
    expect(() => loadOrCreateFilesKey(undefined, keyFile)).toThrow(/must be 32 random bytes/);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe('short');
  });

  it('S3 is refused clearly until its driver exists', () => {
    expect(() => loadConfig({ S3_BUCKET: 'clinic' })).toThrow(/S3 storage driver is not built yet/);
  });
});
