import { format } from 'date-fns';
import type { TCurrentUser } from '#domain/auth';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { StatCards } from './stat-cards.tsx';

/**
 * The frame of '/' for signed-in users. The live-updates issue adds the 'Active Notifications'
 * and 'Today's Schedule' panels below the figures.
 */
export function DashboardPage({ user }: { user: TCurrentUser }) {
  const firstName = user.firstName?.trim();
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title={firstName ? `Welcome back, ${firstName}` : 'Welcome back'}
        subtitle={`${format(new Date(), 'EEEE, MMMM d, yyyy')} · Here's what's happening at your clinic today.`}
      />
      <StatCards />
    </div>
  );
}
