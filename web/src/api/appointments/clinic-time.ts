import { useQuery } from '@tanstack/react-query';
import { clinicQueryOptions } from '../settings/clinic.ts';

/**
 * The clinic's time zone: appointment times are shown, and "today" is found, in it rather than
 * in the browser's zone. Read from GET /api/clinic, the one call that tells every screen about
 * the clinic (its name and zone), so a saved setting reaches them all through one invalidation.
 * While it loads (or if it cannot), the browser's zone stands in, and `known` says which.
 */
export function useClinicTimeZone(): { timeZone: string; known: boolean; pending: boolean } {
  const { data, isPending } = useQuery(clinicQueryOptions());
  return data
    ? { timeZone: data.timeZone, known: true, pending: false }
    : { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, known: false, pending: isPending };
}
