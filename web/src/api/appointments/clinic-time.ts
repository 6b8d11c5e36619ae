import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TClinicTime } from '#domain/appointments';
import { fetchQueryKey } from '../../lib/api-request.ts';

const clinicTimeKey = ['/api/appointments/clinic-time'] as const;

/** GET /api/appointments/clinic-time: the clinic's time zone (CLINIC_TIME_ZONE), read once per session. */
export function clinicTimeQueryOptions() {
  return queryOptions({ queryKey: clinicTimeKey, queryFn: () => fetchQueryKey<TClinicTime>(clinicTimeKey) });
}

/**
 * The clinic's time zone: appointment times are shown, and "today" is found, in it rather than
 * in the browser's zone. While it loads (or if it cannot), the browser's zone stands in, and
 * `known` says which.
 */
export function useClinicTimeZone(): { timeZone: string; known: boolean; pending: boolean } {
  const { data, isPending } = useQuery(clinicTimeQueryOptions());
  return data
    ? { timeZone: data.timeZone, known: true, pending: false }
    : { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, known: false, pending: isPending };
}
