import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZAssignScribe, ZCreateNote, ZNote, ZNoteAwaitingReview, ZNoteList, ZNoteListQuery, ZNoteRevisionList, ZUpdateNote } from '#domain/notes';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { assignScribe, createNote, NOTE_READS, REVIEW_QUEUE_READ, updateNote } from './notes.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid note id') });

/**
 * Patient notes (spec section 7). Which notes a caller sees is the note scope; who may move or
 * edit one, the note workflow and the edit rule (notes.service.ts).
 */
export const noteRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/notes',
    { config: { access: 'notes.read', audit: NOTE_READS.list }, schema: { querystring: ZNoteListQuery, response: { 200: ZNoteList, ...errorResponses } } },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(NOTE_READS.list, request.query)),
  );

  app.get(
    '/api/notes/:id',
    { config: { access: 'notes.read', audit: NOTE_READS.get }, schema: { params: ZParams, response: { 200: ZNote, ...errorResponses } } },
    async (request) => reader(deps, contextOf(request))(NOTE_READS.get, request.params.id),
  );

  app.get(
    '/api/notes/:id/revisions',
    { config: { access: 'notes.read', audit: NOTE_READS.history }, schema: { params: ZParams, response: { 200: ZNoteRevisionList, ...errorResponses } } },
    async (request) => (await reader(deps, contextOf(request))(NOTE_READS.history, request.params.id)).revisions,
  );

  app.get(
    '/api/notes/awaiting-review',
    {
      config: { access: 'notes.addScribe', audit: REVIEW_QUEUE_READ },
      schema: {
        description: "The notes waiting for a scribe's review, without their text ('Add Scribe').",
        response: { 200: z.array(ZNoteAwaitingReview), ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(REVIEW_QUEUE_READ, undefined),
  );

  app.put(
    '/api/notes/:id/scribe',
    {
      config: { access: 'notes.addScribe', audit: { action: 'note.assign_scribe', entityType: 'note' } },
      schema: {
        description: 'Gives a note waiting for review the scribe who is to review it; she is told.',
        params: ZParams,
        body: ZAssignScribe,
        response: { 200: ZNoteAwaitingReview, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => assignScribe(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/notes',
    {
      config: { access: 'notes.create', audit: { action: 'note.create', entityType: 'note' } },
      schema: { body: ZCreateNote, response: { 201: ZNote, ...errorResponses, 409: ZErrorBody } },
    },
    async (request, reply) => reply.code(201).send(await createNote(deps, contextOf(request), request.body)),
  );

  app.put(
    '/api/notes/:id',
    {
      config: { access: 'notes.read', audit: { action: 'note.update', entityType: 'note' } },
      schema: { params: ZParams, body: ZUpdateNote, response: { 200: ZNote, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => updateNote(deps, contextOf(request), request.params.id, request.body),
  );
};
