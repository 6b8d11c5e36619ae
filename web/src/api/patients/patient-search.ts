import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TPatientField, TPatientListItem } from '#domain/patients';
import { apiRequest, queryKeyToUrl } from '../../lib/api-request.ts';

/** Matches offered at once by a patient picker (notes, chat, scheduling); typing more narrows them. */
export const PATIENT_CHOICES_LIMIT = 20;

/**
 * What a picker shows of a match (its line, and the chosen patient's summary), and all it asks
 * the server for: a search over a million patients should not carry their medical histories.
 */
export const PATIENT_CHOICE_FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'phone'] as const satisfies readonly TPatientField[];

/**
 * A match as the server sends it for `fields=`: those fields and `id`. Nothing else is in the
 * type, so a picker that reads another field does not compile rather than showing blanks.
 */
export type TPatientChoice = Pick<Required<TPatientListItem>, 'id' | (typeof PATIENT_CHOICE_FIELDS)[number]>;

const searchKey = (search: string) =>
  ['/api/patients', { search: search || undefined, limit: PATIENT_CHOICES_LIMIT, fields: PATIENT_CHOICE_FIELDS.join(',') }] as const;

/**
 * GET /api/patients?search=&limit=20&fields=… with the query's AbortSignal, so a search the user
 * has typed past is cancelled on the wire, not just ignored. Matches come in the server's order.
 */
export async function searchPatients(search: string, signal?: AbortSignal): Promise<TPatientChoice[]> {
  const response = await apiRequest('GET', queryKeyToUrl(searchKey(search)), undefined, { signal });
  return (await response.json()) as TPatientChoice[];
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
