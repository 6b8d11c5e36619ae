import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INLINE_TYPES } from '#domain/files';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { reader } from '../../scope/reader.ts';
import { FILE_READS } from './files.service.ts';

export const ZObjectParams = z.object({ id: z.string().uuid('Invalid file id') });

/** Stored files once confirmed: sent to whoever may see the record they are attached to. Uploads make them (modules/uploads). */
export const fileRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/objects/:id',
    {
      config: { access: 'signedIn', audit: FILE_READS.download },
      // The bytes are sent as they are: compressing would break ranges and gain little on
      // images and PDFs.
      compress: false,
      schema: {
        description: 'A confirmed file, to who may see the record it is attached to. Honours one Range.',
        params: ZObjectParams,
        response: { 200: z.any().describe('The file'), 206: z.any().describe('The range asked for'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { download: file } = await reader(deps, contextOf(request))(FILE_READS.download, { id: request.params.id, rangeHeader: request.headers.range });
      const inline = INLINE_TYPES.includes(file.contentType);
      const name = file.fileName ?? `${request.params.id}`;
      reply.headers({
        'content-type': file.contentType,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'accept-ranges': 'bytes',
        etag: `"${file.sha256}"`,
        // Whatever a file holds, it runs nothing if opened as a page (a PDF viewer needs none of it).
        ...(file.contentType === 'application/pdf' ? {} : { 'content-security-policy': "default-src 'none'; sandbox" }),
      });
      if (file.range) {
        reply
          .code(206)
          .header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
          .header('content-length', file.range.end - file.range.start + 1);
      } else {
        reply.header('content-length', file.size);
      }
      file.stream.on('error', (error) => request.log.error({ err: loggableError(error) }, 'stored file could not be read'));
      return reply.send(file.stream);
    },
  );
};
