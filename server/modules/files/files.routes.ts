import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { INLINE_TYPES, ZChatAttachment, ZObjectPath, ZPatientAttachment, ZUploaded, ZUploadURL } from '#domain/files';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf } from '../../http/request-context.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { withRawBodies, uploadedBytes } from './raw-body.ts';
import { removeStaleFiles } from './files.cleanup.ts';
import { reader } from '../../scope/reader.ts';
import { confirmUpload, FILE_READS, receiveUpload, requestUpload } from './files.service.ts';

const ZObjectParams = z.object({ id: z.string().uuid('Invalid file id') });
export const ZLinkQuery = z.object({ expires: z.coerce.number().int(), signature: z.string().max(100) });

/** How often the clean-up of unconfirmed uploads runs; what it removes is a day old anyway. */
export const CLEANUP_INTERVAL_MS = 15 * 60_000;


export const fileRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post('/api/objects/upload', {
    config: { access: 'files.upload' },
    schema: {
      description: 'A signed link to PUT one file to: 15 minutes, single use, at most 10485760 bytes. 429 once the hourly upload limit is reached.',
      response: { 200: ZUploadURL, ...errorResponses, 429: ZErrorBody },
    },
  }, async (request) => requestUpload(deps, contextOf(request), originOf(deps, request)));

  app.put('/api/patient-attachments', {
    config: { access: 'files.attachToNotes' },
    schema: { body: ZPatientAttachment, response: { 200: ZObjectPath, ...errorResponses } },
  }, async (request) => confirmUpload(deps, contextOf(request), 'patient-attachment', request.body));

  app.put('/api/chat-attachments', {
    config: { access: 'chat.use' },
    schema: { body: ZChatAttachment, response: { 200: ZObjectPath, ...errorResponses } },
  }, async (request) => confirmUpload(deps, contextOf(request), 'chat-attachment', request.body));

  app.get('/api/objects/:id', {
    config: { access: 'signedIn', audit: FILE_READS.download },
    // The bytes are sent as they are: compressing would break ranges and gain little on
    // images and PDFs.
    compress: false,
    schema: {
      description: 'A confirmed file, to who may see the record it is attached to. Honours one Range.',
      params: ZObjectParams,
      response: { 200: z.any().describe('The file'), 206: z.any().describe('The range asked for'), ...errorResponses },
    },
  }, async (request, reply) => {
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
      reply.code(206).header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
        .header('content-length', file.range.end - file.range.start + 1);
    } else {
      reply.header('content-length', file.size);
    }
    file.stream.on('error', (error) => request.log.error({ err: loggableError(error) }, 'stored file could not be read'));
    return reply.send(file.stream);
  });

  // The upload link takes any content type, as its raw bytes. It needs no session: the
  // signed link names its uploader.
  await withRawBodies(app, (plain) => {
    plain.withTypeProvider<ZodTypeProvider>().put('/api/objects/uploads/:id', {
      config: { access: 'public' },
      // Stored as sent: the size limit counts the bytes that arrive.
      decompress: false,
      schema: {
        description: 'Takes the bytes of one file at a link from POST /api/objects/upload (any content type); 429 past the hourly upload limit.',
        params: ZObjectParams, querystring: ZLinkQuery,
        response: { 200: ZUploaded, ...errorResponses, 413: ZErrorBody, 429: ZErrorBody },
      },
    }, async (request, reply) => {
      const stored = await receiveUpload(deps, request.params.id, request.query, uploadedBytes(request));
      return reply.header('etag', `"${stored.sha256}"`).send(stored);
    });
  });

  // Uploads nobody confirmed go after a day: checked every 15 minutes while the app runs.
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep = setInterval(() => {
      removeStaleFiles(deps).catch((error: unknown) => app.log.error({ err: loggableError(error) }, 'file clean-up failed'));
    }, CLEANUP_INTERVAL_MS);
    sweep.unref();
  });
  app.addHook('onClose', async () => { clearInterval(sweep); });
};
