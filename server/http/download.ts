import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loggableError } from './loggable-error.ts';

/** A file a route streams as a download: its name, its type, and its bytes read as the client takes them. */
export interface TDownload {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/** Streams a download that no cache keeps and no browser sniffs; a failure midway is logged. */
export function sendDownload(request: FastifyRequest, reply: FastifyReply, file: TDownload) {
  file.stream.on('error', (error) => request.log.error({ err: loggableError(error) }, `${file.fileName} failed while streaming`));
  reply.headers({
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.fileName}"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  return reply.send(file.stream);
}
