import { sql } from 'drizzle-orm';
import { zonedDate, zonedDayRange } from '#domain/clinic-time';
import type { TDashboardStats } from '#domain/dashboard';
import { shortLived } from '../cache/short-lived.ts';
import type { Config } from '../config.ts';
import { queryRows, type Db, type Queryable } from '../db/database.ts';

export interface ClinicCounts {
  /** The clinic-wide figures for the clinic's today. */
  get(): Promise<TClinicCounts>;
  /** Forgets them (a patient change: forgetPatientReads). */
  clear(): void;
}

/** How long clinic-wide figures are reused when nothing this instance saw has moved them. */
export const CLINIC_COUNTS_TTL_MS = 5_000;

/**
 * The clinic-wide figures every dashboard, sidebar and unfiltered patient list shows, counted
 * once for everyone rather than once per request (counting every active patient costs more the
 * larger the clinic), keyed by the clinic's day.
 */
export function createClinicCounts(db: Db, config: Config, clinicTimeZone: () => string): ClinicCounts {
  const cache = shortLived<string, TClinicCounts>({ ttlMs: CLINIC_COUNTS_TTL_MS, now: () => config.now().getTime(), maxKeys: 2 });
  // The clinic's day is worked out again only once it has ended, or the clinic's zone changed
  // (it is asked on every request).
  let today: { zone: string; day: string; start: Date; end: Date } | null = null;
  const clinicDay = () => {
    const now = config.now();
    const zone = clinicTimeZone();
    if (!today || today.zone !== zone || now < today.start || now >= today.end) {
      const day = zonedDate(now, zone);
      today = { zone, day, ...zonedDayRange(day, zone) };
    }
    return today;
  };
  return {
    get() {
      const { zone, day, start, end } = clinicDay();
      return cache.get(`${zone} ${day}`, () => clinicCounts(db, { start, end }));
    },
    clear: () => cache.clear(),
  };
}

export type TClinicCounts = Omit<TDashboardStats, 'unreadMessages'>;

/** The clinic-wide dashboard figures in one round trip; "today" is the clinic's day. */
async function clinicCounts(q: Queryable, day: { start: Date; end: Date }): Promise<TClinicCounts> {
  const [counts] = await queryRows<TClinicCounts>(
    q,
    sql`
    select
      (select count(*) from appointments
        where appointment_date >= ${day.start.toISOString()}::timestamptz
          and appointment_date < ${day.end.toISOString()}::timestamptz
          and status not in ('cancelled', 'no_show'))::int as "todayAppointments",
      (select count(*) from patients where is_active)::int as "activePatients",
      (select count(*) from lab_orders where status in ('ordered', 'pending'))::int as "pendingLabResults",
      (select count(*) from lab_orders where status in ('ordered', 'pending') and priority <> 'routine')::int as "urgentLabResults"`,
  );
  return counts!;
}
