import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The one secret of file storage: 32 bytes, from `FILES_KEY` or `DATA_DIR/files.key`. */
export const FILES_KEY_BYTES = 32;

/**
 * Parses a base64 key, or says clearly why it is not one: a malformed key must stop the app,
 * never fall back to a fresh one (files written under the old key could not be read again).
 */
export function parseFilesKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== FILES_KEY_BYTES) {
    throw new Error(`${source} must be ${FILES_KEY_BYTES} random bytes in base64 (44 characters; make one with: openssl rand -base64 32)`);
  }
  return key;
}

/**
 * The key from the environment, or the one kept in the data directory, created there on first
 * start (readable by the app's user only). Creating uses an exclusive open, so two processes
 * starting together cannot each write their own.
 */
export function loadOrCreateFilesKey(fromEnv: Buffer | undefined, keyFile: string): Buffer {
  if (fromEnv) return fromEnv;
  fs.mkdirSync(path.dirname(keyFile), { recursive: true });
  try {
    fs.writeFileSync(keyFile, `${randomBytes(FILES_KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseFilesKey(fs.readFileSync(keyFile, 'utf8'), keyFile);
}

/**
 * A key for one use, derived from the files key (HKDF-SHA256): the cipher and the upload-URL
 * signatures never share a key, and nothing outside this module holds the files key itself.
 */
export function deriveKey(filesKey: Buffer, use: 'objects/aes-256-gcm/v1' | 'uploads/hmac-sha256/v1'): Buffer {
  return Buffer.from(hkdfSync('sha256', filesKey, Buffer.alloc(0), `clinic-ehr files ${use}`, 32));
}
