import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Below this an answer goes as it is: compressing it saves less than the header costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses API answers (lists of patients, appointments, notifications) on the fly for
 * clients that accept it. The web app's files are compressed once, at build time, at the
 * highest level (plugins/web.ts serves those), so this never touches them: a reply that already
 * has a Content-Encoding is left alone.
 *
 * Brotli at quality 4: quality 11 (the default) costs many times the CPU for a few percent, and
 * this runs on every request. BREACH does not apply in practice: a cross-site page cannot make
 * a browser send the SameSite session cookie with its requests, and no secret token is echoed
 * in a body (docs/decisions/front-end-delivery.md).
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
});
