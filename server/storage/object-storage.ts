import type { Readable } from 'node:stream';

/** Inclusive byte positions, as an HTTP Range names them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file bytes live. The app talks to this interface only; which driver runs is decided
 * once, in openFileStorage, from the config. Keys are chosen by the server (object ids), never
 * taken from a request; a driver refuses any other shape.
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
}

/**
 * What a driver keeps: opaque bytes under a key, written whole or not at all, read by byte
 * range. The sealing layer (sealed-storage.ts) encrypts on top of it, the same for every driver.
 */
export interface BlobStore {
  readonly driver: ObjectStorage['driver'];
  /** Writes the stream under `key`; the key shows nothing until the stream has ended without error. */
  put(key: string, body: Readable): Promise<void>;
  /** The stored size in bytes. */
  size(key: string): Promise<number>;
  /** Stored bytes `start`..`end` (inclusive). */
  get(key: string, start: number, end: number): Promise<Readable>;
  remove(key: string): Promise<void>;
}
