import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { loadOrCreateKey } from './key-file.ts';

/**
 * Small secrets the database must hold but must not give away (TOTP seeds): sealed with
 * AES-256-GCM under a key derived from the files key, which is never in the database. A copy of
 * the database alone, a dump or a backup, cannot compute anyone's codes.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** Throws when the text was not sealed with this key or was altered. */
  open(sealed: string): string;
}

const VERSION = 'v1';

export function openSecretBox(files: Config['files']): SecretBox {
  const filesKey = loadOrCreateKey(files.key, files.keyFile);
  const key = Buffer.from(hkdfSync('sha256', filesKey, Buffer.alloc(0), 'clinic-ehr secrets aes-256-gcm/v1', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
