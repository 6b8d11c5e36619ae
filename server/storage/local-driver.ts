import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { deriveKey } from './files-key.ts';
import { decryptingStream, encryptingStream, HEADER_BYTES, layoutOf, readHeader, RECORD_OVERHEAD } from './encrypted-records.ts';
import { Meter } from './meter.ts';
import { checkedKey } from './object-key.ts';
import type { ByteRange, ObjectStorage } from './storage.ts';

/**
 * Objects as encrypted files under `dir` (DATA_DIR/objects): `ab/<id>` by the id's first two
 * characters, so no directory grows without bound. A write goes to `.incoming/` first and is
 * renamed into place only when complete, so a cut-off upload never shows under its key.
 */
export function createLocalStorage(options: { dir: string; filesKey: Buffer }): ObjectStorage {
  const dataKey = deriveKey(options.filesKey, 'objects/aes-256-gcm/v1');
  const incoming = path.join(options.dir, '.incoming');
  fs.mkdirSync(incoming, { recursive: true, mode: 0o700 });
  const fileOf = (key: string) => path.join(options.dir, checkedKey(key).slice(0, 2), key);

  return {
    driver: 'local',

    async write(key, body, { maxBytes }) {
      const target = fileOf(key);
      const partial = path.join(incoming, `${key}.${randomBytes(6).toString('hex')}`);
      const meter = new Meter(maxBytes);
      try {
        await pipeline(body, meter, encryptingStream(dataKey, key), fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { size: meter.bytes, sha256: meter.sha256() };
    },

    async read(key, range?: ByteRange): Promise<Readable> {
      const handle = await fs.promises.open(fileOf(key), 'r');
      try {
        const { size: fileBytes } = await handle.stat();
        const h = Buffer.alloc(HEADER_BYTES);
        await handle.read(h, 0, HEADER_BYTES, 0);
        const recordBytes = readHeader(key, h);
        const { records, size } = layoutOf(key, fileBytes, recordBytes);
        const start = Math.min(range?.start ?? 0, size);
        const end = Math.min(range?.end ?? size - 1, size - 1);
        const length = Math.max(0, end - start + 1);
        const first = Math.min(Math.floor(start / recordBytes), records - 1);
        const last = length === 0 ? first : Math.floor(end / recordBytes);
        const stored = recordBytes + RECORD_OVERHEAD;
        const from = HEADER_BYTES + first * stored;
        const to = Math.min(fileBytes, HEADER_BYTES + (last + 1) * stored) - 1;
        const source = handle.createReadStream({ start: from, end: to, autoClose: true });
        const plain = decryptingStream(dataKey, key, h, recordBytes, { first, records, skip: start - first * recordBytes, length });
        // Errors (a failed tag) end the stream the caller reads; the file is closed either way.
        pipeline(source, plain).catch(() => {});
        return plain;
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },

    async directUploadUrl() {
      return null;
    },
  };
}
