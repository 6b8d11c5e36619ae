import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TChatMember, TChatMessage, TChatRoom } from '#domain/chat';
import type { TRole } from '#domain/roles';
import { preparedRows, queryRows, type Queryable } from '../../db/database.ts';
import { decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { chatRoomMembers, patientChatRooms } from '../../db/schema/collaboration.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/**
 * The one rule for unread messages (the room list, the sidebar badge and the dashboard card all
 * use it): messages from others, not deleted, since the member last read the room, or since she
 * joined if she never has. `m` is chat_messages, `cm` her membership row.
 */
const unreadWhere = (userId: SQL) => sql`m.sender_id <> ${userId} and not m.is_deleted
  and m.created_at > coalesce(cm.last_read_at, cm.joined_at)`;

/** Every unread message of the user, across her rooms. */
export async function unreadMessagesOf(q: Queryable, scope: Pick<ReadScope, 'viewer' | 'patientSeen' | 'restrictedReach'>): Promise<number> {
  const userId = scope.viewer.id;
  // Only rooms she may open: a restricted patient's room is not there for a member outside her reach (issue 47).
  const [row] = await preparedRows<{ n: number }>(
    q,
    scope.restrictedReach ? 'unread_messages_reach' : 'unread_messages',
    sql`
    select count(*)::int as n from chat_messages m
    join chat_room_members cm on cm.chat_room_id = m.chat_room_id and cm.user_id = ${userId} and cm.is_active
    join patient_chat_rooms r on r.id = m.chat_room_id
    where ${unreadWhere(sql`${userId}`)} and ${scope.patientSeen(sql`r.patient_id`)}`,
  );
  return row!.n;
}

/**
 * The rooms a user sees: her rooms, or every room for one who oversees them all (`all`), each
 * with her unread count, the member count, and the patient's name for readers of patients.
 */
export async function listRooms(
  q: Queryable,
  user: { id: string },
  opts: { all: boolean; withPatientName: boolean; roomId?: string; seen: ReadScope['patientSeen'] },
): Promise<TChatRoom[]> {
  return queryRows<TChatRoom>(
    q,
    sql`
    select r.id, r.patient_id as "patientId",
      ${opts.withPatientName ? sql`nullif(concat_ws(' ', p.first_name, p.last_name), '')` : sql`null::text`} as "patientName",
      r.name, r.description, r.created_by_id as "createdById", r.is_active as "isActive",
      ${isoText(sql`r.last_activity_at`)} as "lastActivityAt", ${isoText(sql`r.created_at`)} as "createdAt",
      case when cm.id is null then 0 else (
        select count(*)::int from chat_messages m where m.chat_room_id = r.id and ${unreadWhere(sql`${user.id}::uuid`)}
      ) end as "unreadCount",
      (select count(*)::int from chat_room_members x where x.chat_room_id = r.id and x.is_active) as "memberCount",
      cm.id is not null as "isMember"
    from patient_chat_rooms r
    left join chat_room_members cm on cm.chat_room_id = r.id and cm.user_id = ${user.id}::uuid and cm.is_active
    left join patients p on p.id = r.patient_id
    where ${opts.all ? sql`true` : sql`cm.id is not null`} and ${opts.roomId ? sql`r.id = ${opts.roomId}::uuid` : sql`true`}
      and ${opts.seen(sql`r.patient_id`)}
    order by r.last_activity_at desc, r.id desc`,
  );
}

export async function findRoom(q: Queryable, roomId: string, lock = false) {
  const query = q.select().from(patientChatRooms).where(eq(patientChatRooms.id, roomId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The user's membership row in the room, active or not. */
export async function findMembership(q: Queryable, roomId: string, userId: string) {
  const [row] = await q
    .select()
    .from(chatRoomMembers)
    .where(and(eq(chatRoomMembers.chatRoomId, roomId), eq(chatRoomMembers.userId, userId)));
  return row;
}

export async function listMembers(q: Queryable, roomId: string): Promise<TChatMember[]> {
  return queryRows<TChatMember>(
    q,
    sql`
    select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.role,
      ${isoText(sql`cm.joined_at`)} as "joinedAt", cm.added_by_id as "addedById"
    from chat_room_members cm join users u on u.id = cm.user_id
    where cm.chat_room_id = ${roomId}::uuid and cm.is_active
    order by lower(u.last_name), lower(u.first_name), u.id`,
  );
}

const messageColumns = (viewerId: string) => sql`m.id, m.chat_room_id as "chatRoomId", m.sender_id as "senderId",
  json_build_object('firstName', u.first_name, 'lastName', u.last_name, 'role', u.role) as sender,
  m.message_type as "messageType", m.content, m.attachments, m.related_entity_id as "relatedEntityId",
  m.related_entity_type as "relatedEntityType", m.mentioned_user_ids as "mentionedUserIds", m.is_edited as "isEdited",
  ${isoText(sql`m.edited_at`)} as "editedAt", m.is_deleted as "isDeleted", ${isoText(sql`m.deleted_at`)} as "deletedAt",
  ${isoText(sql`m.created_at`)} as "createdAt",
  coalesce((select json_agg(json_build_object('reaction', x.reaction, 'count', x.n, 'mine', x.mine) order by x.first_at, x.reaction)
    from (select reaction, count(*)::int as n, bool_or(user_id = ${viewerId}::uuid) as mine, min(created_at) as first_at
      from chat_message_reactions where message_id = m.id group by reaction) x), '[]'::json) as reactions`;

export async function readMessage(q: Queryable, viewerId: string, messageId: string): Promise<TChatMessage | null> {
  const [row] = await queryRows<TChatMessage>(
    q,
    sql`select ${messageColumns(viewerId)}
    from chat_messages m join users u on u.id = m.sender_id where m.id = ${messageId}::uuid`,
  );
  return row ?? null;
}

/** The sort key of history: creation time (microseconds) and id, newest first. */
const ZMessageCursor = z.tuple([ZCursorInstant, ZCursorUuid]);
export const decodeMessageCursor = (raw: string) => decodeCursor(raw, ZMessageCursor);

/** One page of a room's history, newest first. */
export async function listMessages(q: Queryable, viewerId: string, roomId: string, opts: { limit: number; after: z.infer<typeof ZMessageCursor> | null }) {
  const rows = await queryRows<TChatMessage & { sort_at: string }>(
    q,
    sql`
    select ${messageColumns(viewerId)}, ${cursorInstantText(sql`m.created_at`)} as sort_at
    from chat_messages m join users u on u.id = m.sender_id
    where m.chat_room_id = ${roomId}::uuid
      ${opts.after ? sql`and (m.created_at, m.id) < (${opts.after[0]}::timestamptz, ${opts.after[1]}::uuid)` : sql``}
    order by m.created_at desc, m.id desc
    limit ${opts.limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => [r.sort_at, r.id]);
  return { items: page.map(({ sort_at: _at, ...message }): TChatMessage => message), total: null, nextCursor };
}

/** Marks the room read up to its latest message (not the clock: a message is either before the mark or counted). */
export async function markRoomRead(q: Queryable, roomId: string, userId: string): Promise<void> {
  await q.execute(sql`update chat_room_members cm set last_read_at = greatest(
      coalesce(cm.last_read_at, cm.joined_at),
      coalesce((select max(created_at) from chat_messages where chat_room_id = ${roomId}::uuid), cm.joined_at))
    where cm.chat_room_id = ${roomId}::uuid and cm.user_id = ${userId}::uuid and cm.is_active`);
}

/** Active staff among these ids (who may be added to a room or mentioned). */
export async function activeUsers(q: Queryable, ids: string[]): Promise<{ id: string; role: TRole }[]> {
  if (ids.length === 0) return [];
  return queryRows<{ id: string; role: TRole }>(
    q,
    sql`select id, role from users where is_active and id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}
