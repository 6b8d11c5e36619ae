import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { can } from '#domain/permissions';
import { zonedDate, zonedDayRange } from '#domain/clinic-time';
import type { TDashboardStats } from '#domain/dashboard';
import { shortLived } from '../cache/short-lived.ts';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/database.ts';
import { rowsOf } from '../db/typed-rows.ts';
import type { ReadScope } from '../scope/read-scope.ts';

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

/**
 * The clinic-wide dashboard figures in one round trip; "today" is the clinic's day. Restricted
 * patients and their lab orders are left out: they are what every reader sees (issue 50), and
 * one who reaches some adds hers (countsFor). Their visits count: the schedule shows them, as
 * 'Restricted patient', to everyone.
 */
async function clinicCounts(q: Queryable, day: { start: Date; end: Date }): Promise<TClinicCounts> {
  const [counts] = await rowsOf(
    q,
    ZClinicCounts,
    sql`
    select
      (select count(*) from appointments
        where appointment_date >= ${day.start.toISOString()}::timestamptz
          and appointment_date < ${day.end.toISOString()}::timestamptz
          and status not in ('cancelled', 'no_show'))::int as "todayAppointments",
      (select count(*) from patients where is_active and restricted_at is null)::int as "activePatients",
      ${labCounts(sql`p.restricted_at is null`)}`,
  );
  return counts!;
}

const ZClinicCounts = z.object({ todayAppointments: z.number(), activePatients: z.number(), pendingLabResults: z.number(), urgentLabResults: z.number() });

/** Outstanding lab orders of the patients `whose` picks (on the alias p), and of them the urgent and STAT ones. */
const labCounts = (whose: SQL) => sql`
  (select count(*) from lab_orders o join patients p on p.id = o.patient_id
    where o.status in ('ordered', 'pending') and ${whose})::int as "pendingLabResults",
  (select count(*) from lab_orders o join patients p on p.id = o.patient_id
    where o.status in ('ordered', 'pending') and o.priority <> 'routine' and ${whose})::int as "urgentLabResults"`;

/**
 * The figures as this reader may see them: the shared ones, plus, for one who reaches restricted
 * patients (care team, running grant), those patients and their lab orders (only for one who
 * reads lab orders). So 'N patients' is the number of cards she can page through.
 */
export async function countsFor(counts: ClinicCounts, q: Queryable, scope: ReadScope): Promise<TClinicCounts> {
  const shared = await counts.get();
  if (!scope.restrictedReach) return shared;
  const reached = sql`p.restricted_at is not null and ${scope.patientRowSeen(sql`p`)}`;
  const [extra] = await rowsOf(
    q,
    ZClinicCounts.omit({ todayAppointments: true }),
    sql`
    select (select count(*) from patients p where p.is_active and ${reached})::int as "activePatients",
      ${labCounts(can(scope.viewer, 'labs.read') ? reached : sql`false`)}`,
  );
  return {
    todayAppointments: shared.todayAppointments,
    activePatients: shared.activePatients + extra!.activePatients,
    pendingLabResults: shared.pendingLabResults + extra!.pendingLabResults,
    urgentLabResults: shared.urgentLabResults + extra!.urgentLabResults,
  };
}
