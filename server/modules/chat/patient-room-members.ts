import { sql } from 'drizzle-orm';
import { rolesWith } from '#domain/permissions';
import { queryRows, type Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';

/**
 * Ends the patient-room memberships (the rule: domain/chat.ts patientRoomAccess) of users who may no longer hold them: everyone whose role
 * cannot read patient records (the clinic turned the setting off), or one user (her role
 * changed). Each is audited as a removal by the admin who made the change, and told to the
 * live feed, so her open rooms close at once. Returns how many memberships ended.
 */
export async function removeBarredMembers(tx: Queryable, raise: Raise, ctx: SignedInContext, only?: { userId: string }): Promise<number> {
  const readers = sql.join(
    rolesWith('patients.read').map((role) => sql`${role}`),
    sql`, `,
  );
  const ended = await queryRows<{ room_id: string; user_id: string; patient_id: string }>(
    tx,
    sql`
    update chat_room_members cm set is_active = false
    from users u, patient_chat_rooms r
    where u.id = cm.user_id and r.id = cm.chat_room_id and cm.is_active
      and u.role::text not in (${readers}) ${only ? sql`and cm.user_id = ${only.userId}::uuid` : sql``}
    returning cm.chat_room_id as room_id, cm.user_id, r.patient_id`,
  );
  await recordAudit(
    tx,
    ctx,
    ended.map((m) => ({ action: 'chat.member.remove', entityType: 'chat_room', entityId: m.room_id, patientId: m.patient_id })),
  );
  for (const m of ended) raise({ type: 'chat.membership', roomId: m.room_id, userId: m.user_id, actorId: ctx.user.id });
  return ended.length;
}
