import { and, eq, sql } from 'drizzle-orm';
import type { TChatMessageType } from '#domain/chat';
import type { Queryable } from '../../db/database.ts';
import { chatMessages, patientChatRooms } from '../../db/schema/collaboration.ts';
import type { Raise } from '../../db/transaction.ts';

/**
 * A message the system writes into each active care-team room of a patient, about a record of
 * hers (people post only 'message'; the other types of spec section 4 are the system's): in the
 * transaction of the change it tells about, from the person who made it, linked to the record
 * (relatedEntityType and relatedEntityId), and pushed live to the rooms' members. Its text names
 * what happened and where to look, never clinical values: the room's members may not all read
 * the record itself.
 */
export async function postSystemMessage(
  tx: Queryable,
  raise: Raise,
  message: {
    patientId: string;
    senderId: string;
    messageType: Exclude<TChatMessageType, 'message'>;
    content: string;
    related: { type: string; id: string };
    at: Date;
  },
): Promise<number> {
  const rooms = await tx
    .select({ id: patientChatRooms.id })
    .from(patientChatRooms)
    .where(and(eq(patientChatRooms.patientId, message.patientId), eq(patientChatRooms.isActive, true)));
  for (const room of rooms) {
    const [row] = await tx
      .insert(chatMessages)
      .values({
        chatRoomId: room.id,
        senderId: message.senderId,
        messageType: message.messageType,
        content: message.content,
        relatedEntityType: message.related.type,
        relatedEntityId: message.related.id,
        createdAt: message.at,
        updatedAt: message.at,
      })
      .returning({ id: chatMessages.id });
    await tx
      .update(patientChatRooms)
      .set({ lastActivityAt: sql`greatest(${patientChatRooms.lastActivityAt}, ${message.at.toISOString()}::timestamptz)` })
      .where(eq(patientChatRooms.id, room.id));
    raise({ type: 'chat.message', roomId: room.id, messageId: row!.id, actorId: message.senderId });
  }
  return rooms.length;
}
