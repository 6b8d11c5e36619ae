import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { RECORD_BYTES } from '../../server/storage/encrypted-records.ts';
import { loadOrCreateKey } from '../../server/secrets/key-file.ts';
import { sealedStorage } from '../../server/storage/sealed-storage.ts';
import { CorruptObjectError, ObjectTooLargeError, openBlobStore, type BlobStore, type ObjectStorage } from '../../server/storage/storage.ts';
import { startTestS3, type TestS3 } from '../helpers/s3-server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-storage-'));
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const filesKey = randomBytes(32);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Delivers a buffer in uneven chunks, as a network would. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 7_777) yield bytes.subarray(at, at + 7_777);
    })(),
  );

/** Both drivers, each as the app opens it from its config, with the store beneath it. */
const DRIVERS = {
  local: () => loadConfig({ DATA_DIR: path.join(dir, 'local') }).files,
  s3: () => loadConfig({ DATA_DIR: path.join(dir, 's3'), ...s3.env }).files,
};

describe.each(Object.keys(DRIVERS) as (keyof typeof DRIVERS)[])('the %s driver', (driver) => {
  let storage: ObjectStorage;
  let blobs: BlobStore;
  beforeAll(async () => {
    const files = DRIVERS[driver]();
    blobs = await openBlobStore(files);
    storage = sealedStorage(blobs, filesKey);
  });
  const read = async (key: string, range?: { start: number; end: number }) => buffer(await storage.read(key, range));
  const stored = async (key: string) => buffer(await blobs.get(key, 0, (await blobs.size(key)) - 1));
  const exists = (key: string) =>
    blobs.size(key).then(
      () => true,
      () => false,
    );
  const localFile = (key: string) => path.join(dir, 'local', 'objects', key.slice(0, 2), key);

  it.each([0, 1, RECORD_BYTES - 1, RECORD_BYTES, RECORD_BYTES + 1, 3 * RECORD_BYTES + 123])(
    'stores %i bytes encrypted and gives the same bytes back, with their size and SHA-256',
    async (n) => {
      const bytes = randomBytes(n);
      const key = randomUUID();
      expect(await storage.write(key, chunked(bytes), { maxBytes: 10_000_000 })).toEqual({ size: n, sha256: sha(bytes) });
      expect(await read(key)).toEqual(bytes);
      const atRest = await stored(key);
      expect(atRest.subarray(0, 4).toString()).toBe('EHRO');
      if (n > 16) expect(atRest.includes(bytes.subarray(0, 16))).toBe(false);
      if (driver === 'local') expect(fs.statSync(localFile(key)).mode & 0o777).toBe(0o600);
    },
  );

  it('reads any range, across record boundaries', async () => {
    const bytes = randomBytes(3 * RECORD_BYTES + 500);
    const key = randomUUID();
    await storage.write(key, Readable.from([bytes]), { maxBytes: 10_000_000 });
    for (const [start, end] of [
      [0, 0],
      [10, 20],
      [RECORD_BYTES - 2, RECORD_BYTES + 2],
      [RECORD_BYTES, 2 * RECORD_BYTES - 1],
      [5, bytes.length - 1],
      [bytes.length - 1, bytes.length - 1],
    ] as const) {
      expect(await read(key, { start, end }), `${start}-${end}`).toEqual(bytes.subarray(start, end + 1));
    }
  });

  it('cuts off a body above the limit and keeps nothing of it', async () => {
    const key = randomUUID();
    // Larger than one S3 part, so the bucket's managed upload has started before the cut.
    await expect(storage.write(key, chunked(randomBytes(9_000_001)), { maxBytes: 9_000_000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await exists(key)).toBe(false);
    if (driver === 'local') expect(fs.readdirSync(path.join(dir, 'local', 'objects', '.incoming'))).toEqual([]);
  });

  it('refuses to release bytes of a changed, cut-off or swapped object', async () => {
    const bytes = randomBytes(2 * RECORD_BYTES + 10);
    const [a, b] = [randomUUID(), randomUUID()];
    await storage.write(a, Readable.from([bytes]), { maxBytes: 10_000_000 });
    await storage.write(b, Readable.from([bytes]), { maxBytes: 10_000_000 });
    const original = await stored(a);

    const flipped = Buffer.from(original);
    flipped[100]! ^= 1;
    await blobs.put(a, Readable.from([flipped]));
    await expect(read(a)).rejects.toBeInstanceOf(CorruptObjectError);

    // Cut at a record boundary: the record now last was not sealed as the last.
    await blobs.put(a, Readable.from([original.subarray(0, 16 + 2 * (RECORD_BYTES + 28))]));
    await expect(read(a)).rejects.toBeInstanceOf(CorruptObjectError);

    // Another object's bytes under this key.
    await blobs.put(a, Readable.from([await stored(b)]));
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
    expect(await exists(key)).toBe(false);
  });
});

describe('the files key', () => {
  it('is created on first start, readable by the app user only, and the same afterwards', () => {
    const keyFile = path.join(dir, 'data', 'files.key');
    const first = loadOrCreateKey(undefined, keyFile);
    expect(first).toHaveLength(32);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(undefined, keyFile)).toEqual(first);
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
    expect(() => loadOrCreateKey(undefined, keyFile)).toThrow(/must be 32 random bytes/);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe('short');
  });

  it('a half-configured bucket stops the app rather than storing files elsewhere', () => {
    expect(() => loadConfig({ S3_BUCKET: 'clinic' })).toThrow(/S3_BUCKET needs S3_REGION/);
    expect(() => loadConfig({ S3_BUCKET: 'clinic', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'a' })).toThrow(/go together/);
    expect(loadConfig({ S3_BUCKET: 'clinic', S3_REGION: 'eu-west-1' }).files.s3).toMatchObject({
      bucket: 'clinic',
      region: 'eu-west-1',
      forcePathStyle: false,
      serverSideEncryption: 'AES256',
    });
  });
});
