import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { PAGE_HEADERS } from '#domain/paging';
import type { TPatient } from '#domain/patients';
import { apiRequest, queryKeyToUrl } from '../../lib/api-request.ts';

/**
 * Cards per request. Divisible by 1, 2 and 3 so every page ends on a full row of the grid.
 * Two screens' worth on a wide screen: the next page loads as the user scrolls, and drawing
 * 48 cards at once was most of the screen's blocking time on a phone (bench/lighthouse.ts).
 */
export const PATIENTS_PAGE_SIZE = 24;

/** Every patient read (the lists and single records) starts with this segment. */
const patientsRootKey = ['/api/patients'] as const;
const patientsListKey = (search: string) =>
  [...patientsRootKey, { search: search || undefined, limit: PATIENTS_PAGE_SIZE }] as const;

export interface TPatientsPage {
  patients: TPatient[];
  /** Matching active patients; always present on the first page. */
  total: number | null;
  /** A search's total was counted only up to PATIENT_PAGE.totalCap and there are more. */
  totalCapped: boolean;
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/**
 * GET /api/patients?search=&limit=&cursor=: one page of active patients, in the server's order
 * (by name, or for a search its best matches first). `signal` cancels a search typed past.
 */
export async function fetchPatientsPage(search: string, cursor: string | null, signal?: AbortSignal): Promise<TPatientsPage> {
  const [path, params] = patientsListKey(search);
  const response = await apiRequest('GET', queryKeyToUrl([path, { ...params, cursor: cursor ?? undefined }]), undefined, { signal });
  const total = response.headers.get(PAGE_HEADERS.total);
  return {
    patients: (await response.json()) as TPatient[],
    total: total === null ? null : Number(total),
    totalCapped: response.headers.get(PAGE_HEADERS.totalCapped) === '1',
    nextCursor: response.headers.get(PAGE_HEADERS.nextCursor),
  };
}

/** `search` is the trimmed term; '' lists everyone. The term is part of the key, so each search caches apart. */
export function patientsQueryOptions(search: string) {
  return infiniteQueryOptions({
    queryKey: patientsListKey(search),
    // Reading `signal` is what lets TanStack Query abort the request once nobody waits for it.
    queryFn: ({ pageParam, signal }) => fetchPatientsPage(search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

export function usePatients(search: string) {
  // While a new term loads, the previous results stay (dimmed) instead of flashing skeletons.
  return useInfiniteQuery({ ...patientsQueryOptions(search), placeholderData: keepPreviousData });
}

/** After any patient write: every list (whatever its search) and every single record re-read. */
export function invalidatePatients(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: patientsRootKey });
}
