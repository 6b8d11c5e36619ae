import { format } from 'date-fns';
import type { TCurrentUser } from '#domain/auth';
import { LiveStatusDot } from '../../components/live-status-dot.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { ActiveNotifications } from './active-notifications.tsx';
import { StatCards } from './stat-cards.tsx';

/**
 * '/' for signed-in users: the figures and the 'Active Notifications' panel. The appointments
 * issue adds 'Today's Schedule' beside the panel.
 */
export function DashboardPage({ user }: { user: TCurrentUser }) {
  const firstName = user.firstName?.trim();
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title={firstName ? `Welcome back, ${firstName}` : 'Welcome back'}
        subtitle={`${format(new Date(), 'EEEE, MMMM d, yyyy')} · Here's what's happening at your clinic today.`}
        actions={<LiveStatusDot showText className="rounded-full border bg-white px-3 py-1.5" />}
      />
      <StatCards />
      {/* Full width until 'Today's Schedule' (appointments issue) takes the other half. */}
      <ActiveNotifications />
    </div>
  );
}
