import type { Config } from '../config.ts';
import { deriveKey } from './files-key.ts';
import { loadOrCreateKey } from '../secrets/key-file.ts';
import { localBlobStore } from './local-driver.ts';
import { s3BlobStore } from './s3-driver.ts';
import type { BlobStore, ObjectStorage } from './object-storage.ts';
import { sealedStorage } from './sealed-storage.ts';

export type { BlobStore, ByteRange, ObjectStorage } from './object-storage.ts';
export { checkedKey } from './object-key.ts';
export { ObjectTooLargeError } from './meter.ts';
export { CorruptObjectError } from './encrypted-records.ts';

export interface FileStorage {
  storage: ObjectStorage;
  /** Signs upload links; derived from the files key, which never leaves this module. */
  uploadSigningKey: Buffer;
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
  return { storage: sealedStorage(await openBlobStore(config.files), filesKey), uploadSigningKey: deriveKey(filesKey, 'uploads/hmac-sha256/v1') };
}
