import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { CalendarX2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TAppointmentsPage } from '../../api/appointments/appointments.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { AppointmentRow, AppointmentRowsSkeleton } from './appointment-row.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** A day's or a patient's appointments, a page at a time: skeleton rows, an error with a retry, the empty text, 'Load more'. */
export function AppointmentList({
  query,
  user,
  timeZone,
  empty,
  errorTitle,
  loadingLabel,
  skeletonRows = 5,
  showDate = false,
  compact = false,
}: {
  query: UseInfiniteQueryResult<InfiniteData<TAppointmentsPage>>;
  user: TCurrentUser;
  timeZone: string;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
  skeletonRows?: 3 | 5;
  showDate?: boolean;
  compact?: boolean;
}) {
  const shown = useDeferredQuery(query);
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = shown;
  if (isPending) return <AppointmentRowsSkeleton rows={skeletonRows} label={loadingLabel} />;
  if (isError && !isFetchNextPageError) return <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;
  const appointments = data.pages.flatMap((page) => page.items);
  if (appointments.length === 0) return <EmptyAppointments>{empty}</EmptyAppointments>;
  return (
    <div>
      <ul className="space-y-3" data-testid="appointment-list">
        {appointments.map((appointment) => (
          <AppointmentRow key={appointment.id} appointment={appointment} user={user} timeZone={timeZone} showDate={showDate} compact={compact} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more appointments." size="sm" className="mt-4" />
    </div>
  );
}

export function EmptyAppointments({ children }: { children: ReactNode }) {
  return (
    <div
      data-testid="appointments-empty"
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-8 text-center text-sm text-slate-600"
    >
      <CalendarX2 className="size-8 text-slate-400" aria-hidden="true" />
      {children}
    </div>
  );
}
