import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TClinicInfo } from '#domain/settings';
import { fetchQueryKey } from '../../lib/api-request.ts';

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

/** After the settings changed. */
export function invalidateClinic(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: clinicKey });
}
