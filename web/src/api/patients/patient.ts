import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TPatient } from '#domain/patients';
import { fetchQueryKey } from '../../lib/api-request.ts';

const patientKey = (id: string) => ['/api/patients', id] as const;

/** GET /api/patients/:id: one patient (404 when unknown). */
export function fetchPatient(id: string): Promise<TPatient> {
  return fetchQueryKey<TPatient>(patientKey(id));
}

export function patientQueryOptions(id: string) {
  return queryOptions({ queryKey: patientKey(id), queryFn: () => fetchPatient(id) });
}

export function usePatient(id: string) {
  return useQuery(patientQueryOptions(id));
}

/** Reads the record afresh from the server, whatever is cached (after someone else changed it). */
export function reloadPatient(client: QueryClient, id: string): Promise<TPatient> {
  return client.fetchQuery({ ...patientQueryOptions(id), staleTime: 0 });
}
