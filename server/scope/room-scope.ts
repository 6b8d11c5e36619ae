import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/database.ts';
import { userSeesPatient } from './read-scope.ts';

/**
 * A room's audience: its active members' ids, whom the live hub sends its messages (checked at
 * every push). A member outside the reach of the room's patient, restricted since she joined
 * (issue 33), is not in it.
 */
export async function activeMemberIds(q: Queryable, roomId: string, now: Date = new Date()): Promise<string[]> {
  const rows = await queryRows<{ userId: string }>(
    q,
    sql`select m.user_id as "userId" from chat_room_members m join patient_chat_rooms r on r.id = m.chat_room_id
    where m.chat_room_id = ${roomId}::uuid and m.is_active and ${userSeesPatient(sql`m.user_id`, sql`r.patient_id`, now)}`,
  );
  return rows.map((r) => r.userId);
}
