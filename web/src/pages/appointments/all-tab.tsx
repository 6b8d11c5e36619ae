import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { ALL_TAB_LIMIT, useAllTabAppointments, type TAllTabView } from '../../api/appointments/appointments.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { AppointmentRow, AppointmentRowsSkeleton } from './appointment-row.tsx';
import { EmptyAppointments } from './appointment-list.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

const VIEWS: Record<TAllTabView, { label: string; heading: string; empty: string; where: string; first: string }> = {
  upcoming: { label: 'Upcoming', heading: 'Upcoming Appointments', empty: 'No upcoming appointments', where: 'from today on', first: 'first' },
  past: { label: 'Past', heading: 'Past Appointments', empty: 'No past appointments', where: 'before today, latest first', first: 'latest' },
};

/**
 * Spec sections 2 and 9: at most the first 20 appointments, with date, time, type and room.
 * "First" is soonest first from the start of the clinic's today, what staff look for in a clinic
 * with years of history; 'Past' turns to the 20 latest before today, newest first (issue 29).
 * The view is kept in the address (?view=past), as the tab is (docs/decisions/appointments-screens.md).
 */
export function AllTab({ user, timeZone, today }: { user: TCurrentUser; timeZone: string; today: string }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const view: TAllTabView = params.get('view') === 'past' ? 'past' : 'upcoming';
  const words = VIEWS[view];
  const { data, isPending, isError, error, refetch } = useDeferredQuery(useAllTabAppointments(today, view));
  return (
    <section aria-labelledby="all-heading">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="all-heading" className="text-lg font-semibold text-slate-900">
            {words.heading}
          </h2>
          {data && data.items.length > 0 && (
            <p className="text-sm text-slate-600" data-testid="all-count">
              {data.total !== null && data.total > data.items.length
                ? `The ${words.first} ${data.items.length} of ${data.total}, ${words.where}`
                : `${data.items.length} ${words.where}`}
            </p>
          )}
        </div>
        <div role="group" aria-label="Which appointments" className="flex gap-1 rounded-md bg-slate-100 p-1">
          {(Object.keys(VIEWS) as TAllTabView[]).map((v) => (
            <Button
              key={v}
              size="sm"
              variant={v === view ? 'default' : 'ghost'}
              aria-pressed={v === view}
              onClick={() => navigate(v === 'upcoming' ? '/appointments?tab=all' : '/appointments?tab=all&view=past', { replace: true })}
            >
              {VIEWS[v].label}
            </Button>
          ))}
        </div>
      </div>
      {isPending ? (
        <AppointmentRowsSkeleton rows={5} label="Loading appointments" />
      ) : isError ? (
        <ErrorState title="Could not load appointments" error={error} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <EmptyAppointments>
          <p className="font-medium text-slate-900">{words.empty}</p>
        </EmptyAppointments>
      ) : (
        <ul className="space-y-3" data-testid="appointment-list" data-limit={ALL_TAB_LIMIT}>
          {data.items.map((appointment) => (
            <AppointmentRow key={appointment.id} appointment={appointment} user={user} timeZone={timeZone} showDate />
          ))}
        </ul>
      )}
    </section>
  );
}
