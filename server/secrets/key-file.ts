import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Every secret key the server keeps (files, audit head): 32 random bytes, base64 in the environment or a file. */
export const KEY_BYTES = 32;

/**
 * Parses a base64 key, or says clearly why it is not one: a malformed key must stop the app,
 * never fall back to a fresh one (what was written or signed under the old key could not be
 * read or checked again).
 */
export function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new Error(`${source} must be ${KEY_BYTES} random bytes in base64 (44 characters; make one with: openssl rand -base64 32)`);
  }
  return key;
}

/**
 * The key from the environment, or the one kept in its file, created there on first start
 * (readable by the app's user only). Creating uses an exclusive open, so two processes starting
 * together cannot each write their own.
 */
export function loadOrCreateKey(fromEnv: Buffer | undefined, keyFile: string): Buffer {
  if (fromEnv) return fromEnv;
  fs.mkdirSync(path.dirname(keyFile), { recursive: true });
  try {
    fs.writeFileSync(keyFile, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKey(fs.readFileSync(keyFile, 'utf8'), keyFile);
}
