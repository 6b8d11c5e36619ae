import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** More bytes arrived than the write allowed; nothing of them was kept. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Object exceeds ${maxBytes} bytes`);
  }
}

/**
 * Passes bytes through while counting them and hashing them (SHA-256), and fails the stream
 * the moment the count passes `maxBytes`: an oversized body is cut off, not read to its end.
 */
export class Meter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private digest: string | null = null;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(new ObjectTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  sha256(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }
}
