import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { deriveKey } from './files-key.ts';
import { decryptingStream, encryptingStream, HEADER_BYTES, layoutOf, readHeader, RECORD_OVERHEAD } from './encrypted-records.ts';
import { Meter } from './meter.ts';
import { checkedKey } from './object-key.ts';
import type { BlobStore, ByteRange, ObjectStorage } from './object-storage.ts';

/**
 * Object storage on any blob store, every object encrypted here before it leaves the process
 * (encrypted-records.ts): the disk or the bucket only ever holds ciphertext, whatever the
 * store's own settings. Metering (size limit, SHA-256) is done on the plaintext on the way in.
 */
export function sealedStorage(store: BlobStore, filesKey: Buffer): ObjectStorage {
  const dataKey = deriveKey(filesKey, 'objects/aes-256-gcm/v1');
  return {
    driver: store.driver,

    async write(key, body, { maxBytes }) {
      const meter = new Meter(maxBytes);
      const sealed = encryptingStream(dataKey, checkedKey(key));
      // Both ends run together: the store reads `sealed` while the body flows into it. A store
      // that fails stops the flow; a body that fails (too large, cut off) fails the put, which
      // then keeps nothing. The flow's error is the one that says why.
      const stored = store.put(key, sealed).catch((error: unknown) => {
        sealed.destroy(error as Error);
        throw error;
      });
      const [flowed, put] = await Promise.allSettled([pipeline(body, meter, sealed), stored]);
      if (flowed.status === 'rejected') throw flowed.reason;
      if (put.status === 'rejected') throw put.reason;
      return { size: meter.bytes, sha256: meter.sha256() };
    },

    async read(key, range?: ByteRange): Promise<Readable> {
      const storedBytes = await store.size(checkedKey(key));
      const h = await buffer(await store.get(key, 0, Math.min(storedBytes, HEADER_BYTES) - 1));
      const recordBytes = readHeader(key, h);
      const { records, size } = layoutOf(key, storedBytes, recordBytes);
      const start = Math.min(range?.start ?? 0, size);
      const end = Math.min(range?.end ?? size - 1, size - 1);
      const length = Math.max(0, end - start + 1);
      const first = Math.min(Math.floor(start / recordBytes), records - 1);
      const last = length === 0 ? first : Math.floor(end / recordBytes);
      const stored = recordBytes + RECORD_OVERHEAD;
      // Only the records the range touches are fetched and decrypted.
      const source = await store.get(key, HEADER_BYTES + first * stored, Math.min(storedBytes, HEADER_BYTES + (last + 1) * stored) - 1);
      const plain = decryptingStream(dataKey, key, h, recordBytes, { first, records, skip: start - first * recordBytes, length });
      // Errors (a failed tag) end the stream the caller reads; the source is closed either way.
      pipeline(source, plain).catch(() => {});
      return plain;
    },

    async remove(key) {
      await store.remove(checkedKey(key));
    },
  };
}
