import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { formatLongDate } from '#domain/clinic-time';
import { LiveStatusDot } from '../../components/live-status-dot.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { ActiveNotifications } from './active-notifications.tsx';
import { StatCards } from '../../components/dashboard/stat-cards.tsx';
import { LowStockCard, SupplierStatCards } from '../../components/dashboard/supply-cards.tsx';
import { isSupplierDashboard } from './first-reads.ts';
import { SupplierOpenOrders } from './supplier-open-orders.tsx';
import { TodaysSchedule } from './todays-schedule.tsx';

/**
 * '/' for signed-in users: the figures, the 'Active Notifications' panel and, for those who read
 * appointments, 'Today's Schedule' beside it. A supplier (no patient data, issue 31) sees her
 * open orders by status and her unread messages instead of the clinic's figures, and her open
 * orders beside the notifications; those who order supplies get a 'Low stock' strip.
 */
export function DashboardPage({ user }: { user: TCurrentUser }) {
  const firstName = user.firstName?.trim();
  // The clinic's today, as Today's Schedule beside it counts it, not the browser's.
  const { timeZone } = useClinicTimeZone();
  const supplier = isSupplierDashboard(user);
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title={firstName ? `Welcome back, ${firstName}` : 'Welcome back'}
        subtitle={`${formatLongDate(new Date().toISOString(), timeZone)} · ${supplier ? 'The orders the clinic placed with you.' : "Here's what's happening at your clinic today."}`}
        actions={<LiveStatusDot showText className="rounded-full border bg-white px-3 py-1.5" />}
      />
      {supplier ? <SupplierStatCards /> : <StatCards />}
      {!supplier && can(user, 'supplies.order') && <LowStockCard />}
      {can(user, 'appointments.read') || supplier ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <ActiveNotifications />
          {supplier ? <SupplierOpenOrders /> : <TodaysSchedule />}
        </div>
      ) : (
        <ActiveNotifications />
      )}
    </div>
  );
}
