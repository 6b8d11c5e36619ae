import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import { deriveKey, loadOrCreateFilesKey } from './files-key.ts';
import { createLocalStorage } from './local-driver.ts';

export { checkedKey } from './object-key.ts';

export { ObjectTooLargeError } from './meter.ts';
export { CorruptObjectError } from './encrypted-records.ts';

/** Inclusive byte positions, as an HTTP Range names them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file bytes live. The app talks to this interface only; which driver runs is decided
 * once, in createObjectStorage, from the config. Keys are chosen by the server (object ids),
 * never taken from a request; a driver refuses any other shape.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /**
   * Stores the body under `key`, streaming: it is counted and hashed on the way, and fails with
   * ObjectTooLargeError as soon as it passes `maxBytes`, keeping nothing. Only a complete body
   * becomes visible under the key.
   */
  write(key: string, body: Readable, options: { maxBytes: number }): Promise<{ size: number; sha256: string }>;
  /** The plaintext of the object, or of one range of it; errors (tampering) surface on the stream. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the object; removing one that is not there is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Where a client sends the bytes itself, for a driver that can sign such a URL (S3 presigns;
   * a later session). Null means this server takes the upload on its own signed URL.
   */
  directUploadUrl(key: string, expiresAt: Date): Promise<string | null>;
}

export interface FileStorage {
  storage: ObjectStorage;
  /** Signs upload links; derived from the files key, which never leaves this module. */
  uploadSigningKey: Buffer;
}

/**
 * The storage the config names, and the upload-link key, both from the files key (loaded or
 * created here, once). Only the local driver exists so far (docs/decisions/files.md).
 */
export function openFileStorage(config: Pick<Config, 'files'>): FileStorage {
  const filesKey = loadOrCreateFilesKey(config.files.key, config.files.keyFile);
  return {
    storage: createLocalStorage({ dir: config.files.objectsDir, filesKey }),
    uploadSigningKey: deriveKey(filesKey, 'uploads/hmac-sha256/v1'),
  };
}
