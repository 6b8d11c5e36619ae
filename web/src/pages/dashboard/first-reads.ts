import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TClinicInfo } from '#domain/settings';
import { clinicToday } from '../../components/appointments/appointment-time.ts';

/**
 * The dashboard's own early reads (signed-in-start.ts starts the layout's), once the user and
 * the clinic are known: Today's Schedule, the clinic's today, its first page, as
 * api/appointments/appointments.ts asks for it; nothing for a user who may not read
 * appointments (a supplier). A small chunk of its own, loaded alongside the signed-in app's code
 * rather than with it, so the read starts as soon as those two answer. The URL is spelled out
 * for the same reason (the api file brings TanStack Query); e2e/first-screen.test.ts fails if
 * the dashboard ever asks for a different one.
 */
export function dashboardReads(user: TCurrentUser, clinic: TClinicInfo): string[] {
  if (!can(user, 'appointments.read')) return [];
  return [`/api/appointments?${new URLSearchParams({ date: clinicToday(clinic.timeZone), limit: '100' })}`];
}
