import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddChatMember,
  ZChatMember,
  ZChatMemberList,
  ZChatMessage,
  ZChatMessageList,
  ZChatMessageQuery,
  ZChatReactionInput,
  ZChatRoom,
  ZChatRoomList,
  ZCreateChatRoom,
  ZEditChatMessage,
  ZPostChatMessage,
  ZUnreadCount,
} from '#domain/chat';
import { ZErrorBody } from '#domain/errors';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { addMember, CHAT_READS, createRoom, deleteMessage, editMessage, markRead, postMessage, react, removeMember, unreadCountFor } from './chat.service.ts';

const ZRoomParams = z.object({ id: z.string().uuid('Invalid room id') });
const ZMemberParams = ZRoomParams.extend({ userId: z.string().uuid('Invalid user id') });
const ZMessageParams = ZRoomParams.extend({ messageId: z.string().uuid('Invalid message id') });
const with409 = { ...errorResponses, 409: ZErrorBody };

/** Team chat (spec section 7, and the data model's edits, deletes, reactions and mentions). */
export const chatRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/chat/rooms',
    { config: { access: 'chat.use', audit: CHAT_READS.rooms }, schema: { response: { 200: ZChatRoomList, ...errorResponses } } },
    async (request) => reader(deps, contextOf(request))(CHAT_READS.rooms, undefined),
  );

  app.get(
    '/api/chat/unread',
    {
      config: { access: 'chat.use' },
      schema: { description: "The Team Chat badge: unread messages across the caller's rooms.", response: { 200: ZUnreadCount, ...errorResponses } },
    },
    async (request) => unreadCountFor(deps, contextOf(request)),
  );

  app.post(
    '/api/chat/rooms',
    {
      config: { access: 'chat.manageRooms', audit: { action: 'chat.room.create', entityType: 'chat_room' } },
      schema: { body: ZCreateChatRoom, response: { 201: z.object({ id: z.string().uuid() }), ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await createRoom(deps, contextOf(request), request.body)),
  );

  app.get(
    '/api/chat/rooms/:id',
    { config: { access: 'chat.use', audit: CHAT_READS.room }, schema: { params: ZRoomParams, response: { 200: ZChatRoom, ...errorResponses } } },
    async (request) => reader(deps, contextOf(request))(CHAT_READS.room, request.params.id),
  );

  app.get(
    '/api/chat/rooms/:id/members',
    { config: { access: 'chat.use', audit: CHAT_READS.members }, schema: { params: ZRoomParams, response: { 200: ZChatMemberList, ...errorResponses } } },
    async (request) => (await reader(deps, contextOf(request))(CHAT_READS.members, request.params.id)).members,
  );

  app.post(
    '/api/chat/rooms/:id/members',
    {
      config: { access: 'chat.manageRooms', audit: { action: 'chat.member.add', entityType: 'chat_room' } },
      schema: { params: ZRoomParams, body: ZAddChatMember, response: { 201: ZChatMember, ...with409 } },
    },
    async (request, reply) => reply.code(201).send(await addMember(deps, contextOf(request), request.params.id, request.body.userId)),
  );

  app.delete(
    '/api/chat/rooms/:id/members/:userId',
    {
      config: { access: 'chat.use', audit: { action: 'chat.member.remove', entityType: 'chat_room' } },
      schema: { params: ZMemberParams, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await removeMember(deps, contextOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/chat/rooms/:id/messages',
    {
      config: { access: 'chat.use', audit: CHAT_READS.messages },
      schema: { params: ZRoomParams, querystring: ZChatMessageQuery, response: { 200: ZChatMessageList, ...errorResponses } },
    },
    async (request, reply) =>
      sendPage(reply, (await reader(deps, contextOf(request))(CHAT_READS.messages, { roomId: request.params.id, query: request.query })).page),
  );

  app.post(
    '/api/chat/rooms/:id/messages',
    {
      config: { access: 'chat.use', audit: { action: 'chat.message.send', entityType: 'chat_message' } },
      schema: { params: ZRoomParams, body: ZPostChatMessage, response: { 201: ZChatMessage, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await postMessage(deps, contextOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/chat/rooms/:id/read',
    { config: { access: 'chat.use' }, schema: { params: ZRoomParams, response: { 200: z.object({ unreadCount: z.number().int() }), ...errorResponses } } },
    async (request) => markRead(deps, contextOf(request), request.params.id),
  );

  app.put(
    '/api/chat/rooms/:id/messages/:messageId',
    {
      config: { access: 'chat.use', audit: { action: 'chat.message.edit', entityType: 'chat_message' } },
      schema: { params: ZMessageParams, body: ZEditChatMessage, response: { 200: ZChatMessage, ...with409 } },
    },
    async (request) => editMessage(deps, contextOf(request), request.params.id, request.params.messageId, request.body.content),
  );

  app.delete(
    '/api/chat/rooms/:id/messages/:messageId',
    {
      config: { access: 'chat.use', audit: { action: 'chat.message.delete', entityType: 'chat_message' } },
      schema: { params: ZMessageParams, response: { 200: ZChatMessage, ...with409 } },
    },
    async (request) => deleteMessage(deps, contextOf(request), request.params.id, request.params.messageId),
  );

  app.post(
    '/api/chat/rooms/:id/messages/:messageId/reactions',
    { config: { access: 'chat.use' }, schema: { params: ZMessageParams, body: ZChatReactionInput, response: { 200: ZChatMessage, ...with409 } } },
    async (request) => react(deps, contextOf(request), request.params.id, request.params.messageId, request.body.reaction, true),
  );

  app.delete(
    '/api/chat/rooms/:id/messages/:messageId/reactions/:reaction',
    { config: { access: 'chat.use' }, schema: { params: ZMessageParams.merge(ZChatReactionInput), response: { 200: ZChatMessage, ...errorResponses } } },
    async (request) => react(deps, contextOf(request), request.params.id, request.params.messageId, request.params.reaction, false),
  );
};
