import { and, eq } from 'drizzle-orm';
import { patientRoomAccess, type TChatMember, type TChatMessage, type TCreateChatRoom, type TPostChatMessage } from '#domain/chat';
import { objectIdOfPath } from '#domain/files';
import { can } from '#domain/permissions';
import type { Queryable, Tx } from '../../db/database.ts';
import { chatMessageReactions, chatMessages, chatRoomMembers, patientChatRooms } from '../../db/schema/collaboration.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, notFound } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { scopeOf, type ReadScope } from '../../scope/read-scope.ts';
import { scopeSeesPatient, writerOf } from '../../scope/writer.ts';
import { readOf } from '../../scope/reader.ts';
import { claimObjects } from '../files/files.service.ts';
import { findStoredObjects } from '../files/files.queries.ts';
import { noticeAddedToRoom, noticeMentioned } from './chat.notices.ts';
import {
  activeUsers,
  decodeMessageCursor,
  findMembership,
  findRoom,
  listMembers,
  listMessages,
  listRooms,
  markRoomRead,
  readMessage,
  unreadMessagesOf,
} from './chat.queries.ts';

const ROOM_NOT_FOUND = 'Chat room not found';
const MESSAGE_NOT_FOUND = 'Message not found';

/**
 * Team chat (spec sections 2, 4, 7): only a room's active members read and post in it. An
 * admin sees every room in her list, to oversee them and add staff, but reads one only as a
 * member; adding herself is allowed and shows in the member list (docs/decisions/chat.md).
 * A room names its patient (its name is often the patient's own), so every read is audited.
 */
export const CHAT_READS = {
  /** The caller's rooms (every room, for one who oversees them): one row, with every patient in the list. */
  rooms: readOf({
    action: 'chat.rooms.read',
    entityType: 'chat_room',
    run: ({ db, scope }, _: void) =>
      listRooms(db, scope.viewer, { all: can(scope.viewer, 'chat.seeAllRooms'), withPatientName: scope.patientNames, seen: scope.patientSeen }),
    shows: (rooms) => (rooms.length > 0 ? { patientIds: [...new Set(rooms.map((r) => r.patientId))] } : null),
  }),
  /** One room as the list shows it (after she created or joined it). */
  room: readOf({
    action: 'chat.room.read',
    entityType: 'chat_room',
    notFound: ROOM_NOT_FOUND,
    run: async ({ db, scope }, roomId: string) => {
      const [room] = await listRooms(db, scope.viewer, { all: true, withPatientName: scope.patientNames, roomId, seen: scope.patientSeen });
      return room && (room.isMember || can(scope.viewer, 'chat.seeAllRooms')) ? room : null;
    },
    shows: (room, roomId) => ({ entityId: roomId, patientId: room.patientId }),
  }),
  /** Who is on a patient's care team is part of her record. */
  members: readOf({
    action: 'chat.members.read',
    entityType: 'chat_room',
    run: async ({ db, scope }, roomId: string) => {
      const { room } = await roomFor(db, scope, roomId, { managers: true });
      return { patientId: room.patientId, members: await listMembers(db, roomId) };
    },
    shows: ({ patientId }, roomId) => ({ entityId: roomId, patientId }),
  }),
  /** History, newest first, a page at a time, to members only. */
  messages: readOf({
    action: 'chat.messages.read',
    entityType: 'chat_room',
    run: async ({ db, scope }, { roomId, query }: { roomId: string; query: { cursor?: string | undefined; limit: number } }) => {
      const { room } = await roomFor(db, scope, roomId);
      const page: TServedPage<TChatMessage> = await listMessages(db, scope.viewer.id, roomId, {
        limit: query.limit,
        after: query.cursor ? decodeMessageCursor(query.cursor) : null,
      });
      return { patientId: room.patientId, page };
    },
    shows: ({ patientId }, { roomId }) => ({ entityId: roomId, patientId }),
  }),
};

export async function unreadCountFor(deps: Deps, ctx: SignedInContext): Promise<{ count: number }> {
  return { count: await unreadMessagesOf(deps.db, scopeOf(ctx, deps.config.now())) };
}

/**
 * The room, if the caller may act in it: an active member, or (for what `managers` allows) one
 * who manages rooms. A room she cannot see at all is a 404; one she sees but is not in, a 403.
 */
async function roomFor(q: Queryable, scope: ReadScope, roomId: string, opts: { managers?: boolean; lock?: boolean } = {}) {
  const viewer = scope.viewer;
  const room = await findRoom(q, roomId, opts.lock);
  // A restricted patient's room is not there for those outside her reach, members or not.
  if (!room || !(await scopeSeesPatient(q, scope, room.patientId))) throw notFound(ROOM_NOT_FOUND);
  const membership = await findMembership(q, roomId, viewer.id);
  if (membership?.isActive) return { room, membership };
  if (opts.managers && can(viewer, 'chat.manageRooms')) return { room, membership: null };
  if (can(viewer, 'chat.seeAllRooms')) throw forbidden();
  throw notFound(ROOM_NOT_FOUND);
}

/** POST /api/chat/rooms: a room about one active patient; its creator is its first member. */
export async function createRoom(deps: Deps, ctx: SignedInContext, input: TCreateChatRoom): Promise<{ id: string }> {
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const patient = await writerOf(tx, ctx, now).patient(input.patientId);
    if (!patient) throw invalid('patientId', 'Patient is required');
    if (!patient.isActive) throw invalid('patientId', 'Must be an active patient');
    const [room] = await tx
      .insert(patientChatRooms)
      .values({
        patientId: input.patientId,
        name: input.name,
        description: input.description || null,
        createdById: ctx.user.id,
        lastActivityAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: patientChatRooms.id });
    await tx.insert(chatRoomMembers).values({ chatRoomId: room!.id, userId: ctx.user.id, addedById: ctx.user.id, joinedAt: now, lastReadAt: now });
    await recordAudit(tx, ctx, { action: 'chat.room.create', entityType: 'chat_room', entityId: room!.id, patientId: input.patientId });
    raise({ type: 'chat.membership', roomId: room!.id, userId: ctx.user.id, actorId: ctx.user.id });
    return { id: room!.id };
  });
}

/**
 * POST members: an active staff member joins (again, if she had left); a current member is a
 * 409. She is told (chat_assignment).
 */
export async function addMember(deps: Deps, ctx: SignedInContext, roomId: string, userId: string): Promise<TChatMember> {
  return inTransaction(deps, async (tx, raise) => {
    const { room } = await roomFor(tx, scopeOf(ctx, deps.config.now()), roomId, { managers: true, lock: true });
    const [user] = await activeUsers(tx, [userId]);
    if (!user) throw invalid('userId', 'Must be an active staff member');
    if (patientRoomAccess(user.role, deps.settings.current()) === 'barred') throw new HttpError('chat.noPatientAccess');
    const existing = await findMembership(tx, roomId, userId);
    if (existing?.isActive) throw new HttpError('record.conflict', { message: 'Already a member of this room' });
    const now = deps.config.now();
    if (existing) {
      await tx
        .update(chatRoomMembers)
        .set({ isActive: true, addedById: ctx.user.id, joinedAt: now, lastReadAt: null })
        .where(eq(chatRoomMembers.id, existing.id));
    } else {
      await tx.insert(chatRoomMembers).values({ chatRoomId: roomId, userId, addedById: ctx.user.id, joinedAt: now });
    }
    await recordAudit(tx, ctx, { action: 'chat.member.add', entityType: 'chat_room', entityId: roomId, patientId: room.patientId });
    if (userId !== ctx.user.id) await noticeAddedToRoom(tx, raise, { userId, roomId, roomName: room.name, actor: ctx.user });
    raise({ type: 'chat.membership', roomId, userId, actorId: ctx.user.id });
    return (await listMembers(tx, roomId)).find((m) => m.userId === userId)!;
  });
}

/**
 * DELETE members/{userId}: a member leaves, or one who manages rooms removes her. From that
 * moment she reads nothing more, live or not (every push checks membership when it is sent).
 */
export async function removeMember(deps: Deps, ctx: SignedInContext, roomId: string, userId: string): Promise<void> {
  await inTransaction(deps, async (tx, raise) => {
    const leaving = userId === ctx.user.id;
    const { room } = await roomFor(tx, scopeOf(ctx, deps.config.now()), roomId, { managers: !leaving, lock: true });
    if (!leaving && !can(ctx.user, 'chat.manageRooms')) throw forbidden();
    const membership = await findMembership(tx, roomId, userId);
    if (!membership?.isActive) throw notFound('Not a member of this room');
    await tx.update(chatRoomMembers).set({ isActive: false }).where(eq(chatRoomMembers.id, membership.id));
    await recordAudit(tx, ctx, {
      action: leaving ? 'chat.member.leave' : 'chat.member.remove',
      entityType: 'chat_room',
      entityId: roomId,
      patientId: room.patientId,
    });
    raise({ type: 'chat.membership', roomId, userId, actorId: ctx.user.id });
  });
}

/**
 * Opening a room marks it read, up to its latest message. Under the room's lock, so a message
 * being posted at that moment is either before the mark or counted unread, never lost.
 */
export async function markRead(deps: Deps, ctx: SignedInContext, roomId: string): Promise<{ unreadCount: number }> {
  return deps.db.transaction(async (tx) => {
    await roomFor(tx, scopeOf(ctx, deps.config.now()), roomId, { lock: true });
    await markRoomRead(tx, roomId, ctx.user.id);
    return { unreadCount: 0 };
  });
}

/** The attachments sent, checked against the files the caller confirmed for chat: the stored name, size and type win. */
async function attachmentsOf(tx: Tx, ctx: SignedInContext, sent: TPostChatMessage['attachments'], messageId: string, now: Date) {
  const paths = sent.map((a) => a.url);
  await claimObjects(tx, ctx, paths, { type: 'chat_message', id: messageId }, now);
  const stored = await findStoredObjects(
    tx,
    paths.map((p) => objectIdOfPath(p)!),
  );
  return sent.map((a) => {
    const file = stored.find((s) => s.id === objectIdOfPath(a.url))!;
    return { name: file.fileName ?? a.name, size: file.size, url: a.url, type: file.contentType ?? a.type };
  });
}

/**
 * POST messages: by a member; trimmed text, or a file (one, confirmed for chat). Mentions must
 * be members and are told (chat_mention). The room's activity moves, under its lock (see
 * markRead), and every member is sent `new_message` live.
 */
export async function postMessage(deps: Deps, ctx: SignedInContext, roomId: string, input: TPostChatMessage): Promise<TChatMessage> {
  return inTransaction(deps, async (tx, raise) => {
    const { room } = await roomFor(tx, scopeOf(ctx, deps.config.now()), roomId, { lock: true });
    const mentioned = [...new Set(input.mentionedUserIds)].filter((id) => id !== ctx.user.id);
    for (const userId of mentioned) {
      if (!(await findMembership(tx, roomId, userId))?.isActive) throw invalid('mentionedUserIds', 'Only members of the room can be mentioned');
    }
    const now = deps.config.now();
    const [row] = await tx
      .insert(chatMessages)
      .values({
        chatRoomId: roomId,
        senderId: ctx.user.id,
        messageType: input.messageType,
        content: input.content,
        relatedEntityId: input.relatedEntityId || null,
        relatedEntityType: input.relatedEntityType || null,
        mentionedUserIds: mentioned,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: chatMessages.id });
    const messageId = row!.id;
    if (input.attachments.length > 0) {
      const attachments = await attachmentsOf(tx, ctx, input.attachments, messageId, now);
      await tx.update(chatMessages).set({ attachments }).where(eq(chatMessages.id, messageId));
    }
    await tx.update(patientChatRooms).set({ lastActivityAt: now, updatedAt: now }).where(eq(patientChatRooms.id, roomId));
    await recordAudit(tx, ctx, { action: 'chat.message.send', entityType: 'chat_message', entityId: messageId, patientId: room.patientId });
    for (const userId of mentioned) await noticeMentioned(tx, raise, { userId, roomId, roomName: room.name, actor: ctx.user });
    raise({ type: 'chat.message', roomId, messageId, actorId: ctx.user.id });
    return (await readMessage(tx, ctx.user.id, messageId))!;
  });
}

/** The caller's own message in a room she is a member of; anyone else's is a 403, an unknown one 404. */
async function ownMessage(tx: Tx, ctx: SignedInContext, roomId: string, messageId: string, own = true) {
  const { room } = await roomFor(tx, scopeOf(ctx, new Date()), roomId);
  const [message] = await tx
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.chatRoomId, roomId)))
    .for('update');
  if (!message) throw notFound(MESSAGE_NOT_FOUND);
  if (own && message.senderId !== ctx.user.id) throw forbidden();
  if (message.isDeleted) throw new HttpError('workflow.illegalMove', { message: 'This message was deleted' });
  return { room, message };
}

export async function editMessage(deps: Deps, ctx: SignedInContext, roomId: string, messageId: string, content: string): Promise<TChatMessage> {
  return inTransaction(deps, async (tx, raise) => {
    const { room, message } = await ownMessage(tx, ctx, roomId, messageId);
    if (message.content !== content) {
      const now = deps.config.now();
      await tx.update(chatMessages).set({ content, isEdited: true, editedAt: now, updatedAt: now }).where(eq(chatMessages.id, messageId));
      await recordAudit(tx, ctx, { action: 'chat.message.edit', entityType: 'chat_message', entityId: messageId, patientId: room.patientId });
      raise({ type: 'chat.message', roomId, messageId, actorId: ctx.user.id });
    }
    return (await readMessage(tx, ctx.user.id, messageId))!;
  });
}

/** A delete empties the message for every reader (text, files, reactions); the row stays, marked deleted. */
export async function deleteMessage(deps: Deps, ctx: SignedInContext, roomId: string, messageId: string): Promise<TChatMessage> {
  return inTransaction(deps, async (tx, raise) => {
    const { room } = await ownMessage(tx, ctx, roomId, messageId);
    const now = deps.config.now();
    await tx
      .update(chatMessages)
      .set({ content: '', attachments: [], mentionedUserIds: [], isDeleted: true, deletedAt: now, updatedAt: now })
      .where(eq(chatMessages.id, messageId));
    await tx.delete(chatMessageReactions).where(eq(chatMessageReactions.messageId, messageId));
    await recordAudit(tx, ctx, { action: 'chat.message.delete', entityType: 'chat_message', entityId: messageId, patientId: room.patientId });
    raise({ type: 'chat.message', roomId, messageId, actorId: ctx.user.id });
    return (await readMessage(tx, ctx.user.id, messageId))!;
  });
}

/** A reaction, one per user per text: adding one twice is a 409; removing one not there, a 404. */
export async function react(deps: Deps, ctx: SignedInContext, roomId: string, messageId: string, reaction: string, add: boolean): Promise<TChatMessage> {
  return inTransaction(deps, async (tx, raise) => {
    await ownMessage(tx, ctx, roomId, messageId, false);
    if (add) {
      const inserted = await tx
        .insert(chatMessageReactions)
        .values({ messageId, userId: ctx.user.id, reaction, createdAt: deps.config.now() })
        .onConflictDoNothing()
        .returning({ id: chatMessageReactions.id });
      if (inserted.length === 0) throw new HttpError('record.conflict', { message: 'You already reacted with this' });
    } else {
      const removed = await tx
        .delete(chatMessageReactions)
        .where(and(eq(chatMessageReactions.messageId, messageId), eq(chatMessageReactions.userId, ctx.user.id), eq(chatMessageReactions.reaction, reaction)))
        .returning({ id: chatMessageReactions.id });
      if (removed.length === 0) throw notFound('No such reaction of yours');
    }
    raise({ type: 'chat.message', roomId, messageId, actorId: ctx.user.id });
    return (await readMessage(tx, ctx.user.id, messageId))!;
  });
}
