import { staffName, type TCurrentUser } from '#domain/auth';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { notify } from '../notifications/notifications.service.ts';

/**
 * What chat tells people (spec section 3's chat_assignment and chat_mention), naming the room
 * and who acted, never a message's text: the room is one click away, for its members only.
 */
interface TRoomNotice {
  userId: string;
  roomId: string;
  roomName: string;
  actor: Pick<TCurrentUser, 'firstName' | 'lastName' | 'email'>;
}

export function noticeAddedToRoom(tx: Queryable, raise: Raise, n: TRoomNotice) {
  return notify(tx, raise, {
    userId: n.userId,
    type: 'chat_assignment',
    entityId: n.roomId,
    title: 'Added to a chat room',
    message: `${staffName(n.actor)} added you to ${n.roomName}.`,
  });
}

export function noticeMentioned(tx: Queryable, raise: Raise, n: TRoomNotice) {
  return notify(tx, raise, {
    userId: n.userId,
    type: 'chat_mention',
    entityId: n.roomId,
    title: 'Mentioned in a chat',
    message: `${staffName(n.actor)} mentioned you in ${n.roomName}.`,
  });
}
