import { queryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TAppointment } from '#domain/appointments';
import { addDays } from '#domain/clinic-time';
import type { TPage } from '#domain/paging';
import { fetchPage, pagedQueryOptions } from '../../lib/paged-query.ts';

/** Every appointment read (lists, days, counts, conflicts) starts with this segment. */
export const appointmentsRootKey = ['/api/appointments'] as const;

/** Rows per request for a day or a patient: a whole ordinary day in one page. */
export const APPOINTMENTS_PAGE_SIZE = 100;
/** Spec section 9: the All tab lists the first 20. */
export const ALL_TAB_LIMIT = 20;

/** One of the list's filters (GET /api/appointments): a clinic day, a range of days, a patient. */
export interface TAppointmentFilter {
  date?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  patientId?: string | undefined;
  /** Soonest first unless 'desc'. */
  order?: 'asc' | 'desc' | undefined;
}

export type TAppointmentsPage = TPage<TAppointment>;

const listKey = (filter: TAppointmentFilter, limit: number) => [...appointmentsRootKey, { ...filter, limit }] as const;

/** GET /api/appointments?date=|from=&to=|patientId=&order=&limit=&cursor=: one page, in time order, with the total. */
export function fetchAppointmentsPage(filter: TAppointmentFilter, limit: number, cursor: string | null, signal?: AbortSignal): Promise<TAppointmentsPage> {
  return fetchPage<TAppointment>(listKey(filter, limit), cursor, signal);
}

/** A filter's appointments a page at a time (a day, a patient): 'Load more' reads the next. */
export function appointmentsQueryOptions(filter: TAppointmentFilter, limit = APPOINTMENTS_PAGE_SIZE) {
  return pagedQueryOptions<TAppointment>(listKey(filter, limit));
}

/** One clinic day's appointments (the Today tab, the calendar's day panel, the dashboard). */
export function useDayAppointments(date: string | null) {
  return useInfiniteQuery({ ...appointmentsQueryOptions({ date: date ?? undefined }), enabled: date !== null });
}

/** Every appointment of one patient, in time order. */
export function usePatientAppointments(patientId: string) {
  return useInfiniteQuery(appointmentsQueryOptions({ patientId }));
}

/** The All tab's two views: from the start of the clinic's today on, or before it. */
export type TAllTabView = 'upcoming' | 'past';

/**
 * The All tab: the first 20 from the start of the clinic's today on, soonest first, or the 20
 * latest before it, newest first (docs/decisions/appointments-screens.md), with the total of
 * that view.
 */
export function useAllTabAppointments(today: string | null, view: TAllTabView) {
  const filter = today === null ? {} : view === 'upcoming' ? { from: today } : { to: addDays(today, -1), order: 'desc' as const };
  return useQuery({
    ...queryOptions({ queryKey: listKey(filter, ALL_TAB_LIMIT), queryFn: () => fetchAppointmentsPage(filter, ALL_TAB_LIMIT, null) }),
    enabled: today !== null,
  });
}

/** After any appointment write: every list, day and count is read again. */
export function invalidateAppointments(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: appointmentsRootKey });
}
