import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * The at-rest format of the local driver (docs/decisions/files.md): a 16-byte header, then the
 * plaintext cut into records of RECORD_BYTES (the last one shorter), each sealed on its own
 * with AES-256-GCM:
 *
 *   header  = "EHRO" | version 1 | 3 zero bytes | record size (uint32 BE) | 4 zero bytes
 *   record  = IV (12 random bytes) | ciphertext | tag (16 bytes)
 *   AAD     = header | object key | record index (uint64 BE) | 1 if it is the last record, else 0
 *
 * Records let a range be read without decrypting the whole file, and nothing is released
 * before its record's tag is verified. The AAD ties each record to its object and position and
 * marks the last one, so records cannot be swapped, reordered, or cut off unnoticed. An empty
 * file is one empty last record.
 */
export const RECORD_BYTES = 64 * 1024;
const MAGIC = Buffer.from('EHRO', 'latin1');
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const HEADER_BYTES = 16;
export const RECORD_OVERHEAD = IV_BYTES + TAG_BYTES;

export class CorruptObjectError extends Error {
  constructor(key: string, why: string) {
    super(`Stored object ${key} cannot be read: ${why}`);
  }
}

function header(recordBytes: number): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(h, 0);
  h.writeUInt8(VERSION, 4);
  h.writeUInt32BE(recordBytes, 8);
  return h;
}

/** The record size a stored header declares, after checking it is one of ours. */
export function readHeader(key: string, h: Buffer): number {
  if (h.length < HEADER_BYTES || !h.subarray(0, 4).equals(MAGIC)) throw new CorruptObjectError(key, 'not an encrypted object');
  if (h.readUInt8(4) !== VERSION) throw new CorruptObjectError(key, `unknown format version ${h.readUInt8(4)}`);
  const recordBytes = h.readUInt32BE(8);
  if (recordBytes < 1 || recordBytes > 16 * 1024 * 1024) throw new CorruptObjectError(key, 'bad record size');
  return recordBytes;
}

function aad(h: Buffer, key: string, index: number, last: boolean): Buffer {
  const position = Buffer.alloc(9);
  position.writeBigUInt64BE(BigInt(index), 0);
  position.writeUInt8(last ? 1 : 0, 8);
  return Buffer.concat([h, Buffer.from(key, 'utf8'), position]);
}

/** The number of records and the plaintext size of a stored file of `fileBytes`. */
export function layoutOf(key: string, fileBytes: number, recordBytes: number): { records: number; size: number } {
  const body = fileBytes - HEADER_BYTES;
  const stored = recordBytes + RECORD_OVERHEAD;
  const records = Math.ceil(body / stored);
  const lastBytes = body - (records - 1) * stored;
  if (records < 1 || lastBytes < RECORD_OVERHEAD) throw new CorruptObjectError(key, 'truncated');
  return { records, size: body - records * RECORD_OVERHEAD };
}

/** Plaintext in, the stored format out; holds at most one record in memory. */
export function encryptingStream(dataKey: Buffer, key: string, recordBytes = RECORD_BYTES): Transform {
  const h = header(recordBytes);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
    cipher.setAAD(aad(h, key, index, last));
    index += 1;
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(h);
      callback();
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Only a record with bytes after it is known not to be the last: keep one back.
      if (pendingBytes > recordBytes) {
        let all = Buffer.concat(pending);
        while (all.length > recordBytes) {
          this.push(seal(all.subarray(0, recordBytes), false));
          all = all.subarray(recordBytes);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      this.push(seal(Buffer.concat(pending), true));
      pending = [];
      callback();
    },
  });
}

/**
 * The stored bytes of records `first`..`last` in, the plaintext from `skip` bytes into the
 * first record for `length` bytes out; each record is released only once its tag checks.
 */
export function decryptingStream(
  dataKey: Buffer,
  key: string,
  h: Buffer,
  recordBytes: number,
  plan: { first: number; records: number; skip: number; length: number },
): Transform {
  const stored = recordBytes + RECORD_OVERHEAD;
  let buffered: Buffer = Buffer.alloc(0);
  let index = plan.first;
  let skip = plan.skip;
  let left = plan.length;
  const open = (record: Buffer): Buffer => {
    if (record.length < RECORD_OVERHEAD) throw new CorruptObjectError(key, 'truncated record');
    const decipher = createDecipheriv('aes-256-gcm', dataKey, record.subarray(0, IV_BYTES));
    decipher.setAAD(aad(h, key, index, index === plan.records - 1));
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    try {
      const plain = Buffer.concat([decipher.update(record.subarray(IV_BYTES, record.length - TAG_BYTES)), decipher.final()]);
      index += 1;
      return plain;
    } catch {
      throw new CorruptObjectError(key, `record ${index} failed authentication`);
    }
  };
  const release = (stream: Transform, plain: Buffer) => {
    const part = plain.subarray(skip, skip + left);
    skip = 0;
    left -= part.length;
    if (part.length > 0) stream.push(part);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      try {
        while (buffered.length >= stored) {
          release(this, open(buffered.subarray(0, stored)));
          buffered = buffered.subarray(stored);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (buffered.length > 0) release(this, open(buffered));
        if (left > 0) throw new CorruptObjectError(key, 'shorter than expected');
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
