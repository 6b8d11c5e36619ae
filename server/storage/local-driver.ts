import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkedKey } from './object-key.ts';
import type { BlobStore, ObjectStorage } from './object-storage.ts';
import { sealedStorage } from './sealed-storage.ts';

/**
 * Blobs as files under `dir` (DATA_DIR/objects): `ab/<id>` by the id's first two characters,
 * so no directory grows without bound. A write goes to `.incoming/` first and is renamed into
 * place only when complete, so a cut-off upload never shows under its key.
 */
export function localBlobStore(dir: string): BlobStore {
  const incoming = path.join(dir, '.incoming');
  fs.mkdirSync(incoming, { recursive: true, mode: 0o700 });
  const fileOf = (key: string) => path.join(dir, checkedKey(key).slice(0, 2), key);
  return {
    driver: 'local',
    async put(key, body) {
      const target = fileOf(key);
      const partial = path.join(incoming, `${key}.${randomBytes(6).toString('hex')}`);
      try {
        await pipeline(body, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
    },
    async size(key) {
      return (await fs.promises.stat(fileOf(key))).size;
    },
    async get(key, start, end) {
      const handle = await fs.promises.open(fileOf(key), 'r');
      return handle.createReadStream({ start, end, autoClose: true });
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}

/** The default driver: encrypted files on local disk. */
export function createLocalStorage(options: { dir: string; filesKey: Buffer }): ObjectStorage {
  return sealedStorage(localBlobStore(options.dir), options.filesKey);
}
