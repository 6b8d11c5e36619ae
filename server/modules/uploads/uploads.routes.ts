import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZChatAttachment, ZObjectPath, ZPatientAttachment, ZUploaded, ZUploadURL } from '#domain/files';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf } from '../../http/request-context.ts';
import { runPeriodically } from '../../jobs/periodic.ts';
import { ZObjectParams } from '../files/files.routes.ts';
import { uploadedBytes, withRawBodies } from './raw-body.ts';
import { removeStaleFiles } from './stale-uploads.ts';
import { confirmUpload, receiveUpload, requestUpload } from './uploads.service.ts';

export const ZLinkQuery = z.object({ expires: z.coerce.number().int(), signature: z.string().max(100) });

/** How often the clean-up of unconfirmed uploads runs; what it removes is a day old anyway. */
export const CLEANUP_INTERVAL_MS = 15 * 60_000;

/** Uploads of one file: a signed link, its bytes, and their confirmation for a purpose (large files: multipart.routes.ts). */
export const uploadRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/api/objects/upload',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'A signed link to PUT one file to: 15 minutes, single use, at most 10485760 bytes. 429 once the hourly upload limit is reached.',
        response: { 200: ZUploadURL, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => requestUpload(deps, contextOf(request), originOf(deps, request)),
  );

  app.put(
    '/api/patient-attachments',
    { config: { access: 'files.attachToNotes' }, schema: { body: ZPatientAttachment, response: { 200: ZObjectPath, ...errorResponses } } },
    async (request) => confirmUpload(deps, contextOf(request), 'patient-attachment', request.body),
  );

  app.put(
    '/api/chat-attachments',
    { config: { access: 'chat.use' }, schema: { body: ZChatAttachment, response: { 200: ZObjectPath, ...errorResponses } } },
    async (request) => confirmUpload(deps, contextOf(request), 'chat-attachment', request.body),
  );

  // The upload link takes any content type, as its raw bytes. It needs no session: the
  // signed link names its uploader.
  await withRawBodies(app, (plain) => {
    plain.withTypeProvider<ZodTypeProvider>().put(
      '/api/objects/uploads/:id',
      {
        config: { access: 'public' },
        // Stored as sent: the size limit counts the bytes that arrive.
        decompress: false,
        schema: {
          description: 'Takes the bytes of one file at a link from POST /api/objects/upload (any content type); 429 past the hourly upload limit.',
          params: ZObjectParams,
          querystring: ZLinkQuery,
          response: { 200: ZUploaded, ...errorResponses, 413: ZErrorBody, 429: ZErrorBody },
        },
      },
      async (request, reply) => {
        const stored = await receiveUpload(deps, request.params.id, request.query, uploadedBytes(request));
        return reply.header('etag', `"${stored.sha256}"`).send(stored);
      },
    );
  });

  // Uploads nobody confirmed go after a day: checked every 15 minutes while the app runs.
  runPeriodically(app, 'file clean-up', CLEANUP_INTERVAL_MS, () => removeStaleFiles(deps));
};
