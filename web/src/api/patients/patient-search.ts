import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TPatient } from '#domain/patients';
import { apiRequest, queryKeyToUrl } from '../../lib/api-request.ts';

/** Matches offered at once by a patient picker (notes, chat, scheduling); typing more narrows them. */
export const PATIENT_CHOICES_LIMIT = 20;

const searchKey = (search: string) => ['/api/patients', { search: search || undefined, limit: PATIENT_CHOICES_LIMIT }] as const;

/**
 * GET /api/patients?search=&limit=20 with the query's AbortSignal, so a search the user has
 * typed past is cancelled on the wire, not just ignored.
 */
export async function searchPatients(search: string, signal?: AbortSignal): Promise<TPatient[]> {
  const response = await apiRequest('GET', queryKeyToUrl(searchKey(search)), undefined, { signal });
  return (await response.json()) as TPatient[];
}

export function patientSearchQueryOptions(search: string) {
  return queryOptions({
    queryKey: searchKey(search),
    // Reading `signal` is what lets TanStack Query abort the request once nobody waits for it.
    queryFn: ({ signal }) => searchPatients(search, signal),
  });
}

/** The picker's matches for a (debounced, trimmed) term; the previous matches stay while the next load. */
export function usePatientSearch(search: string, enabled: boolean) {
  return useQuery({ ...patientSearchQueryOptions(search), enabled, placeholderData: keepPreviousData });
}
