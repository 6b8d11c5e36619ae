import { Readable } from 'node:stream';
import type { ServerSideEncryption } from '@aws-sdk/client-s3';
import { checkedKey } from './object-key.ts';
import type { BlobStore } from './object-storage.ts';

export interface S3Settings {
  bucket: string;
  /** Unset for AWS itself; the URL of any other S3-compatible store. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's own chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Bucket in the path rather than the host name, as most self-hosted stores need. */
  forcePathStyle: boolean;
  /** The store's own encryption at rest, asked for on every write; null where the store has none. */
  serverSideEncryption: ServerSideEncryption | null;
}

/** Parts of at most this size are in memory per upload while a blob streams to the store. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Blobs as objects under `objects/<id>` in one bucket. A write streams through the SDK's managed
 * upload (one request, or a multipart upload for a large body) and the object exists only once
 * it has completed; a failed body aborts it.
 */
export async function s3BlobStore(settings: S3Settings): Promise<BlobStore> {
  // Loaded here, not at the top: a server on local disk never loads the SDK (the bundle keeps
  // a dynamic import of an external package dynamic).
  const { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
  });
  const at = (key: string) => ({ Bucket: settings.bucket, Key: `objects/${checkedKey(key)}` });
  return {
    driver: 's3',
    async put(key, body) {
      const upload = new Upload({
        client,
        queueSize: 2,
        partSize: PART_BYTES,
        params: { ...at(key), Body: body, ...(settings.serverSideEncryption ? { ServerSideEncryption: settings.serverSideEncryption } : {}) },
      });
      await upload.done();
    },
    async size(key) {
      const head = await client.send(new HeadObjectCommand(at(key)));
      return head.ContentLength ?? 0;
    },
    async get(key, start, end) {
      const object = await client.send(new GetObjectCommand({ ...at(key), Range: `bytes=${start}-${end}` }));
      if (!(object.Body instanceof Readable)) throw new Error('The store answered without a body');
      return object.Body;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand(at(key)));
    },
  };
}
