import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { chatRoomMembers } from '../db/schema/collaboration.ts';

/** A room's audience: its active members' ids, whom the live hub sends its messages (checked at every push). */
export async function activeMemberIds(q: Queryable, roomId: string): Promise<string[]> {
  const rows = await q
    .select({ userId: chatRoomMembers.userId })
    .from(chatRoomMembers)
    .where(and(eq(chatRoomMembers.chatRoomId, roomId), eq(chatRoomMembers.isActive, true)));
  return rows.map((r) => r.userId);
}
