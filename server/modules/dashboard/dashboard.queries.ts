import { sql } from 'drizzle-orm';
import type { TDashboardStats } from '#domain/dashboard';
import { queryRows, type Queryable } from '../../db/database.ts';

/** The four dashboard figures in one round trip. Unread messages are the caller's own. */
export async function dashboardStats(q: Queryable, userId: string, day: { start: Date; end: Date }): Promise<TDashboardStats> {
  const [stats] = await queryRows<TDashboardStats>(q, sql`
    select
      (select count(*) from appointments
        where appointment_date >= ${day.start.toISOString()}::timestamptz
          and appointment_date < ${day.end.toISOString()}::timestamptz
          and status not in ('cancelled', 'no_show'))::int as "todayAppointments",
      (select count(*) from patients where is_active)::int as "activePatients",
      (select count(*) from lab_orders where status in ('ordered', 'pending'))::int as "pendingLabResults",
      (select count(*) from chat_messages m
        join chat_room_members cm on cm.chat_room_id = m.chat_room_id and cm.user_id = ${userId} and cm.is_active
        where m.sender_id <> ${userId} and not m.is_deleted
          and m.created_at > coalesce(cm.last_read_at, cm.joined_at))::int as "unreadMessages"`);
  return stats!;
}
