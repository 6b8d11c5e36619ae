import type { TCurrentUser } from '#domain/auth';
import { ALL_TAB_LIMIT, useUpcomingAppointments } from '../../api/appointments/appointments.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { AppointmentRow, AppointmentRowsSkeleton } from './appointment-row.tsx';
import { EmptyAppointments } from './appointment-list.tsx';

/**
 * Spec section 2 and 9: at most the first 20 appointments, with date, time, type and room.
 * "First" is soonest first from the start of the clinic's today: what staff look for in a
 * clinic with years of history (docs/decisions/appointments-screens.md).
 */
export function AllTab({ user, timeZone, today }: { user: TCurrentUser; timeZone: string; today: string }) {
  const { data, isPending, isError, error, refetch } = useUpcomingAppointments(today);
  return (
    <section aria-labelledby="all-heading">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="all-heading" className="text-lg font-semibold text-slate-900">
          Upcoming Appointments
        </h2>
        {data && data.items.length > 0 && (
          <p className="text-sm text-slate-600" data-testid="all-count">
            {data.total !== null && data.total > data.items.length
              ? `The first ${data.items.length} of ${data.total}, from today on`
              : `${data.items.length} from today on`}
          </p>
        )}
      </div>
      {isPending ? (
        <AppointmentRowsSkeleton rows={5} label="Loading appointments" />
      ) : isError ? (
        <ErrorState title="Could not load appointments" error={error} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <EmptyAppointments>
          <p className="font-medium text-slate-900">No upcoming appointments</p>
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
