import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TClinicInfo } from '#domain/settings';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { runtimeTimeZone } from '#domain/clinic-time';

const clinicKey = ['/api/clinic'] as const;

/** GET /api/clinic: the clinic's name (the top bar) and time zone, for every signed-in user. */
export function fetchClinic(): Promise<TClinicInfo> {
  return fetchQueryKey<TClinicInfo>(clinicKey);
}

export function clinicQueryOptions() {
  return queryOptions({ queryKey: clinicKey, queryFn: fetchClinic });
}

export function useClinic() {
  return useQuery(clinicQueryOptions());
}

/**
 * The clinic's time zone: appointment times are shown, and "today" is found, in it rather than
 * in the browser's zone. Read from GET /api/clinic, the one call that tells every screen about
 * the clinic (its name and zone), so a saved setting reaches them all through one invalidation.
 * While it loads (or if it cannot), the browser's zone stands in, and `known` says which.
 */
export function useClinicTimeZone(): { timeZone: string; known: boolean; pending: boolean } {
  const { data, isPending } = useQuery(clinicQueryOptions());
  return data ? { timeZone: data.timeZone, known: true, pending: false } : { timeZone: runtimeTimeZone(), known: false, pending: isPending };
}

/** After the settings changed. */
export function invalidateClinic(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: clinicKey });
}
