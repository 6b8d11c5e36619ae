import { CalendarDays, FlaskConical, MessageSquare, Users, type LucideIcon } from 'lucide-react';
import type { TDashboardStats } from '#domain/dashboard';
import { useDashboardStats } from '../../api/dashboard/dashboard-stats.ts';
import { ErrorState } from '../error-state.tsx';
import { Card, CardContent } from '../ui/card.tsx';
import { Skeleton } from '../ui/skeleton.tsx';

type TNote = string | ((stats: TDashboardStats) => string);

/**
 * Spec section 2: the small texts under each figure are fixed, not computed; the lab card's
 * 'urgent' is the real count of urgent and STAT orders outstanding since lab orders exist (issue 30).
 */
const STAT_CARDS: { key: keyof TDashboardStats; label: string; note: TNote; icon: LucideIcon; tint: string }[] = [
  { key: 'todayAppointments', label: "Today's Appointments", note: '12% from yesterday', icon: CalendarDays, tint: 'bg-blue-50 text-blue-700' },
  { key: 'activePatients', label: 'Active Patients', note: '8% this month', icon: Users, tint: 'bg-green-50 text-green-700' },
  {
    key: 'pendingLabResults',
    label: 'Pending Lab Results',
    note: (s) => `${s.urgentLabResults} urgent`,
    icon: FlaskConical,
    tint: 'bg-amber-50 text-amber-700',
  },
  { key: 'unreadMessages', label: 'Unread Messages', note: '2 urgent', icon: MessageSquare, tint: 'bg-purple-50 text-purple-700' },
];

export function StatCards() {
  const { data, isLoading, isError, error, refetch } = useDashboardStats();

  if (isError) return <ErrorState title="Could not load today's figures" error={error} onRetry={() => void refetch()} />;

  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className="sr-only">
        Clinic figures
      </h2>
      {isLoading && (
        <p role="status" className="sr-only">
          Loading clinic figures
        </p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {STAT_CARDS.map(({ key, label, note, icon: Icon, tint }) => (
          <li key={key}>
            <Card data-testid={`stat-${key}`} className="h-full">
              <CardContent className="flex h-full items-start justify-between gap-3 p-5">
                <div className="flex h-full flex-col">
                  <p className="text-sm font-medium text-slate-600">{label}</p>
                  {data ? <p className="mt-1 text-3xl font-bold text-slate-900">{data[key]}</p> : <Skeleton className="mt-2 h-8 w-16" />}
                  <p className="mt-auto pt-1 text-xs text-slate-600" data-testid={`stat-${key}-note`}>
                    {typeof note === 'string' ? note : data ? note(data) : '\u00a0'}
                  </p>
                </div>
                <span className={`flex size-10 shrink-0 items-center justify-center rounded-lg ${tint}`}>
                  <Icon className="size-5" aria-hidden="true" />
                </span>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
