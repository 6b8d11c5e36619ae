import { hkdfSync } from 'node:crypto';

/**
 * A key for one use, derived from the files key (`FILES_KEY` or `DATA_DIR/files.key`,
 * secrets/key-file.ts) with HKDF-SHA256: the cipher and the upload-URL signatures never share a
 * key, and nothing outside this module holds the files key itself.
 */
export function deriveKey(filesKey: Buffer, use: 'objects/aes-256-gcm/v1' | 'uploads/hmac-sha256/v1'): Buffer {
  return Buffer.from(hkdfSync('sha256', filesKey, Buffer.alloc(0), `clinic-ehr files ${use}`, 32));
}
