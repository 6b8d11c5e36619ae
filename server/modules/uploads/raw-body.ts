import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The body of an upload PUT, handed on unread. Not a plain object, so no hook walks the stream. */
class UploadBody {
  readonly #stream: Readable;
  constructor(stream: Readable) {
    this.#stream = stream;
  }
  get stream(): Readable {
    return this.#stream;
  }
}

/**
 * Registers routes that take any content type (or none) as raw bytes: the signed upload and
 * part links. The API's JSON-only parsing is replaced in this scope only.
 */
export async function withRawBodies(app: FastifyInstance, routes: (scope: FastifyInstance) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, new UploadBody(payload)));
    routes(scope);
  });
}

/** What a raw-body route received: the bytes, streaming, and what the headers said of them. */
export function uploadedBytes(request: FastifyRequest): { stream: Readable; declaredLength: number | null; declaredType: string | null } {
  const length = request.headers['content-length'];
  return {
    // Through a pass-through: cutting off an oversized body ends that, not the request, which
    // must stay open for the 413 answer.
    stream: request.body instanceof UploadBody ? request.body.stream.pipe(new PassThrough()) : Readable.from([]),
    declaredLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
    declaredType: request.headers['content-type'] ?? null,
  };
}
