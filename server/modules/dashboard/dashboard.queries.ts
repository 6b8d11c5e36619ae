import { sql } from 'drizzle-orm';
import { preparedRows, queryRows, type Queryable } from '../../db/database.ts';
import type { TDashboardStats } from '#domain/dashboard';

export type TClinicCounts = Omit<TDashboardStats, 'unreadMessages'>;

/** The clinic-wide dashboard figures in one round trip; "today" is the clinic's day. */
export async function clinicCounts(q: Queryable, day: { start: Date; end: Date }): Promise<TClinicCounts> {
  const [counts] = await queryRows<TClinicCounts>(q, sql`
    select
      (select count(*) from appointments
        where appointment_date >= ${day.start.toISOString()}::timestamptz
          and appointment_date < ${day.end.toISOString()}::timestamptz
          and status not in ('cancelled', 'no_show'))::int as "todayAppointments",
      (select count(*) from patients where is_active)::int as "activePatients",
      (select count(*) from lab_orders where status in ('ordered', 'pending'))::int as "pendingLabResults"`);
  return counts!;
}

/** Messages in the user's rooms from others, since the user last read each room. */
export async function unreadMessages(q: Queryable, userId: string): Promise<number> {
  const [row] = await preparedRows<{ n: number }>(q, 'unread_messages', sql`
    select count(*)::int as n from chat_messages m
    join chat_room_members cm on cm.chat_room_id = m.chat_room_id and cm.user_id = ${userId} and cm.is_active
    where m.sender_id <> ${userId} and not m.is_deleted
      and m.created_at > coalesce(cm.last_read_at, cm.joined_at)`);
  return row!.n;
}
