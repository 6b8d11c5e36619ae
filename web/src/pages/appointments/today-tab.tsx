import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { TCurrentUser } from '#domain/auth';
import type { TAppointmentsPage } from '../../api/appointments/appointments.ts';
import { formatLongDay } from '#domain/clinic-time';
import { AppointmentList } from './appointment-list.tsx';

/** Today's appointments in the clinic's day, in time order, each with the buttons its status and this user allow. */
export function TodayTab({
  query,
  user,
  timeZone,
  today,
}: {
  query: UseInfiniteQueryResult<InfiniteData<TAppointmentsPage>>;
  user: TCurrentUser;
  timeZone: string;
  today: string;
}) {
  return (
    <section aria-labelledby="today-heading">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="today-heading" className="text-lg font-semibold text-slate-900">
          Today's Appointments
        </h2>
        <p className="text-sm text-slate-600">{formatLongDay(today)}</p>
      </div>
      <AppointmentList
        query={query}
        user={user}
        timeZone={timeZone}
        loadingLabel="Loading today's appointments"
        errorTitle="Could not load today's appointments"
        empty={<p className="font-medium text-slate-900">No appointments scheduled for today</p>}
      />
    </section>
  );
}
