import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/database.ts';
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
