import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';
import { deriveKey } from './files-key.ts';
import { loadOrCreateKey } from '../secrets/key-file.ts';
import { localBlobStore } from './local-driver.ts';
import { s3BlobStore } from './s3-driver.ts';
import type { BlobStore, ObjectStorage } from './object-storage.ts';
import { sealedStorage } from './sealed-storage.ts';

export type { BlobStore, ByteRange, ObjectStorage } from './object-storage.ts';
export { isObjectKey, OBJECT_KEY_PATTERN } from './object-key.ts';
export { ObjectTooLargeError } from './meter.ts';
export { CorruptObjectError } from './encrypted-records.ts';

export interface FileStorage {
  storage: ObjectStorage;
  /** Signs upload links; derived from the files key, which never leaves this module. */
  uploadSigningKey: Buffer;
  /**
   * Defers every removal until the returned release runs (then they happen), so that a backup's
   * copy of the objects, taken after its snapshot of the database, still finds every object a row
   * of that snapshot names (backup/write-backup.ts). Holds may overlap.
   */
  holdRemovals(): () => Promise<void>;
}

/**
 * Where the config says bytes live: a bucket when S3_BUCKET is set, else DATA_DIR/objects. The
 * S3 SDK is loaded only when a bucket is configured (s3-driver.ts).
 */
export async function openBlobStore(files: Config['files']): Promise<BlobStore> {
  return files.s3 ? s3BlobStore(files.s3) : localBlobStore(files.objectsDir);
}

/**
 * The storage the config names, every object encrypted with the files key, and the upload-link
 * key, both derived from the files key (loaded or created here, once).
 */
export async function openFileStorage(config: Pick<Config, 'files'>): Promise<FileStorage> {
  const filesKey = loadOrCreateKey(config.files.key, config.files.keyFile);
  const held = removalHold(sealedStorage(await openBlobStore(config.files), filesKey));
  return { ...held, uploadSigningKey: deriveKey(filesKey, 'uploads/hmac-sha256/v1') };
}

/** A key's public name (a backup records it, a restore checks it): a hash under a label of its own, revealing nothing usable. */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update('clinic-ehr key fingerprint v1\0').update(key).digest('hex').slice(0, 32);
}

function removalHold(inner: ObjectStorage): Pick<FileStorage, 'storage' | 'holdRemovals'> {
  let holds = 0;
  const deferred = new Set<string>();
  const storage: ObjectStorage = {
    driver: inner.driver,
    write: (key, body, options) => inner.write(key, body, options),
    read: (key, range) => inner.read(key, range),
    remove: async (key) => {
      if (holds > 0) deferred.add(key);
      else await inner.remove(key);
    },
  };
  const holdRemovals = () => {
    holds += 1;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      holds -= 1;
      if (holds > 0) return;
      const keys = [...deferred];
      deferred.clear();
      for (const key of keys) await inner.remove(key);
    };
  };
  return { storage, holdRemovals };
}
