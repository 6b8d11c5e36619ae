import type { TCurrentUser } from '#domain/auth';
import { useAnalytics } from '../../api/analytics/analytics.ts';
import { StatCards } from '../../components/dashboard/stat-cards.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { AppointmentsPerDayChart } from './analytics-appointments-chart.tsx';
import { NotesByStatusChart } from './analytics-notes-chart.tsx';
import { TurnaroundStat } from './analytics-turnaround.tsx';

/**
 * The Admin Panel's Analytics tab (spec section 2: the dashboard's stats; issue 20: charts a
 * clinic manager reads at a glance). Its own chunk, so the chart library loads only here.
 */
export function AnalyticsTab(_props: { user: TCurrentUser }) {
  const { data, isPending, isError, error, refetch } = useAnalytics();

  return (
    <div className="space-y-6">
      <StatCards />
      <section aria-labelledby="analytics-heading" className="space-y-4">
        <h2 id="analytics-heading" className="text-lg font-semibold text-slate-900">
          Clinic activity
        </h2>
        {isPending ? (
          <LoadingBlock />
        ) : isError ? (
          <ErrorState title="Could not load the clinic's activity" error={error} onRetry={() => void refetch()} />
        ) : (
          <>
            <AppointmentsPerDayChart days={data.appointmentsPerDay} />
            <div className="grid gap-4 lg:grid-cols-2">
              <NotesByStatusChart notes={data.notesByStatus} />
              <TurnaroundStat turnaround={data.turnaround} />
            </div>
            <p className="text-xs text-slate-600">Days are the clinic's ({data.timeZone}).</p>
          </>
        )}
      </section>
    </div>
  );
}
