import { keepPreviousData, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { TPatient } from '#domain/patients';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/**
 * Cards per request. Divisible by 1, 2 and 3 so every page ends on a full row of the grid.
 * Two screens' worth on a wide screen: the next page loads as the user scrolls, and drawing
 * 48 cards at once was most of the screen's blocking time on a phone (bench/lighthouse.ts).
 */
export const PATIENTS_PAGE_SIZE = 24;

/** Every patient read (the lists and single records) starts with this segment. */
const patientsRootKey = ['/api/patients'] as const;
const patientsListKey = (search: string) => [...patientsRootKey, { search: search || undefined, limit: PATIENTS_PAGE_SIZE }] as const;

/** `search` is the trimmed term; '' lists everyone. The term is part of the key, so each search caches apart. */
export function patientsQueryOptions(search: string) {
  return pagedQueryOptions<TPatient>(patientsListKey(search));
}

export function usePatients(search: string) {
  // While a new term loads, the previous results stay (dimmed) instead of flashing skeletons.
  return useInfiniteQuery({ ...patientsQueryOptions(search), placeholderData: keepPreviousData });
}

/** After any patient write: every list (whatever its search) and every single record re-read. */
export function invalidatePatients(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: patientsRootKey });
}
