import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TClinicInfo } from '#domain/settings';
import { clinicToday } from '#domain/clinic-time';

/** A supplier's dashboard: her orders instead of the clinic's patient figures (issue 31). */
export const isSupplierDashboard = (user: TCurrentUser) => can(user, 'supplies.readOrders') && !can(user, 'patients.read');

/** The supply summary (api/supplies/supplies-summary.ts): a supplier's cards. */
const SUPPLIES_SUMMARY_URL = '/api/supplies/summary';
/** A supplier's 'Open Orders' panel: its first page, as api/supplies/supply-orders.ts asks for it (pages/dashboard/supplier-open-orders.tsx). */
const SUPPLIER_OPEN_ORDERS_URL = '/api/supply-orders?view=open&limit=5';

/**
 * The dashboard's own early reads (signed-in-start.ts starts the layout's). A small chunk of its
 * own, loaded alongside the signed-in app's code rather than with it, so the reads start as soon
 * as what they depend on has answered. The URLs are spelled out for the same reason (the api
 * files bring TanStack Query); e2e/first-screen.test.ts fails if the dashboard ever asks for a
 * different one, or for one twice.
 *
 * Once the user is known: a supplier's figures and first open orders (issue 31), her whole
 * first screen. They start the moment the user check answers, before the screen can ask for
 * them itself; a read started after the screen asked would be a second request, never taken.
 */
export function dashboardUserReads(user: TCurrentUser): string[] {
  return isSupplierDashboard(user) ? [SUPPLIES_SUMMARY_URL, SUPPLIER_OPEN_ORDERS_URL] : [];
}

/**
 * Once the clinic is known too: Today's Schedule, the clinic's today, its first page, as
 * api/appointments/appointments.ts asks for it; nothing for a user who may not read
 * appointments (a supplier). The 'Low stock' strip of those who order is not first-screen
 * content: it reads when it is drawn.
 */
export function dashboardClinicReads(user: TCurrentUser, clinic: TClinicInfo): string[] {
  if (!can(user, 'appointments.read')) return [];
  return [`/api/appointments?${new URLSearchParams({ date: clinicToday(clinic.timeZone), limit: '100' })}`];
}
