import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZMultipartComplete, ZMultipartCompleted, ZMultipartCreate, ZMultipartCreated, ZSignedPart, ZUploadedPart, ZUploadParams } from '#domain/files';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { HttpError } from '../../http/errors.ts';
import { contextOf } from '../../http/request-context.ts';
import { originOf } from '../../http/public-origin.ts';
import { ZLinkQuery } from './uploads.routes.ts';
import { requestUpload } from './uploads.service.ts';
import { abortMultipartUpload, completeMultipartUpload, createMultipartUpload, listUploadedParts, receivePart, signPart } from './multipart.service.ts';
import { uploadedBytes, withRawBodies } from './raw-body.ts';

// Optional here so that a request without one gets the companion's own message, not a schema error.
const ZKeyQuery = z.object({ key: z.string().max(100).optional() });
const ZUploadIdParams = z.object({ uploadId: z.string().max(100) });

/**
 * The large-file companion calls of spec section 7, under /api/uploads/s3/, as Uppy's AWS S3
 * plugin makes them (`endpoint: '/api/uploads'`). Same on both drivers: parts come to this
 * server on signed links (docs/decisions/files.md). Every call but the part PUT needs a session
 * that may upload, and every call on an upload needs its uploader.
 */
export const multipartRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // The companion names itself on every answer (spec section 7), as Uppy's client expects.
  app.addHook('onSend', async (request, reply) => {
    reply.header('i-am', originOf(deps, request));
  });

  app.post(
    '/api/uploads/s3/multipart',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'Starts a large upload in parts; 429 past the hourly upload limit or the open uploads allowed per user.',
        body: ZMultipartCreate,
        response: { 200: ZMultipartCreated, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => createMultipartUpload(deps, contextOf(request), request.body),
  );

  app.get(
    '/api/uploads/s3/multipart/:uploadId',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'The parts received so far.',
        params: ZUploadIdParams,
        querystring: ZKeyQuery,
        response: { 200: z.array(ZUploadedPart), ...errorResponses },
      },
    },
    async (request) => listUploadedParts(deps, contextOf(request), request.params.uploadId, request.query.key),
  );

  app.get(
    '/api/uploads/s3/multipart/:uploadId/:partNumber',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'A signed link to PUT one part to, good for 15 minutes; 429 once the hourly upload limit is reached.',
        params: ZUploadIdParams.extend({ partNumber: z.string().max(10) }),
        querystring: ZKeyQuery,
        response: { 200: ZSignedPart, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => signPart(deps, contextOf(request), { ...request.params, key: request.query.key }, originOf(deps, request)),
  );

  app.post(
    '/api/uploads/s3/multipart/:uploadId/complete',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'Joins the listed parts into one file; `location` is the fileURL to confirm.',
        params: ZUploadIdParams,
        querystring: ZKeyQuery,
        body: ZMultipartComplete,
        response: { 200: ZMultipartCompleted, ...errorResponses, 413: ZErrorBody },
      },
    },
    async (request) =>
      completeMultipartUpload(deps, contextOf(request), request.params.uploadId, request.query.key, request.body.parts, originOf(deps, request)),
  );

  app.delete(
    '/api/uploads/s3/multipart/:uploadId',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'Cancels a large upload and drops its parts.',
        params: ZUploadIdParams,
        querystring: ZKeyQuery,
        response: { 200: z.object({}), ...errorResponses },
      },
    },
    async (request) => {
      await abortMultipartUpload(deps, contextOf(request), request.params.uploadId, request.query.key);
      return {};
    },
  );

  app.get(
    '/api/uploads/s3/params',
    {
      config: { access: 'files.upload' },
      schema: {
        description: 'Where a single-request upload goes: the same signed link as POST /api/objects/upload.',
        querystring: z.object({ filename: z.string().max(255).optional(), type: z.string().max(200).optional() }).passthrough(),
        response: { 200: ZUploadParams, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => {
      const { uploadURL } = await requestUpload(deps, contextOf(request), originOf(deps, request));
      return { method: 'PUT' as const, url: uploadURL, fields: {}, headers: {} };
    },
  );

  app.get(
    '/api/uploads/s3/sts',
    {
      config: { access: 'files.upload' },
      schema: { description: 'Not offered: store credentials never leave the server.', response: { ...errorResponses, 501: ZErrorBody } },
    },
    async () => {
      throw new HttpError('upload.noCredentials');
    },
  );

  await withRawBodies(app, (plain) => {
    plain
      .withTypeProvider<ZodTypeProvider>()
      .put(
        '/api/uploads/parts/:uploadId/:partNumber',
        {
          config: { access: 'public' },
          decompress: false,
          schema: {
            description: 'Takes the bytes of one part at a link from the sign call (any content type); answers its ETag. 429 past the hourly upload limit.',
            params: ZUploadIdParams.extend({ partNumber: z.coerce.number().int().min(1).max(10_000) }),
            querystring: ZLinkQuery,
            response: { 200: z.object({ ETag: z.string(), size: z.number().int() }), ...errorResponses, 413: ZErrorBody, 429: ZErrorBody },
          },
        },
        async (request, reply) => {
          const { uploadId, partNumber } = request.params;
          const part = await receivePart(deps, uploadId, partNumber, request.query, uploadedBytes(request));
          return reply.header('etag', `"${part.etag}"`).send({ ETag: `"${part.etag}"`, size: part.size });
        },
      );
  });
};
