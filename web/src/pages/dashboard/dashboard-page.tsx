import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { formatLongDate } from '../../components/appointments/appointment-time.ts';
import { LiveStatusDot } from '../../components/live-status-dot.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { ActiveNotifications } from './active-notifications.tsx';
import { StatCards } from '../../components/dashboard/stat-cards.tsx';
import { TodaysSchedule } from './todays-schedule.tsx';

/**
 * '/' for signed-in users: the figures, the 'Active Notifications' panel and, for those who read
 * appointments (not a supplier), 'Today's Schedule' beside it.
 */
export function DashboardPage({ user }: { user: TCurrentUser }) {
  const firstName = user.firstName?.trim();
  // The clinic's today, as Today's Schedule beside it counts it, not the browser's.
  const { timeZone } = useClinicTimeZone();
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title={firstName ? `Welcome back, ${firstName}` : 'Welcome back'}
        subtitle={`${formatLongDate(new Date().toISOString(), timeZone)} · Here's what's happening at your clinic today.`}
        actions={<LiveStatusDot showText className="rounded-full border bg-white px-3 py-1.5" />}
      />
      <StatCards />
      {can(user, 'appointments.read') ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <ActiveNotifications />
          <TodaysSchedule />
        </div>
      ) : (
        <ActiveNotifications />
      )}
    </div>
  );
}
