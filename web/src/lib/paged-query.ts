import { infiniteQueryOptions } from '@tanstack/react-query';
import { PAGE_HEADERS, type TPage } from '#domain/paging';
import { apiRequest, queryKeyToUrl, type TQueryKey } from './api-request.ts';

/**
 * GETs one page of the list a query key names (server/http/paging.ts): the body is the plain
 * array; the total (on the first page always), whether it was capped, and where the next page
 * starts come in the headers. `cursor` null reads the first page; `signal` cancels on the wire.
 */
export async function fetchPage<T>(queryKey: TQueryKey, cursor: string | null, signal?: AbortSignal): Promise<TPage<T>> {
  // A second object in the key adds its parameters after the key's own.
  const response = await apiRequest('GET', queryKeyToUrl([...queryKey, { cursor }]), undefined, { signal });
  const total = response.headers.get(PAGE_HEADERS.total);
  return {
    items: (await response.json()) as T[],
    total: total === null ? null : Number(total),
    totalCapped: response.headers.get(PAGE_HEADERS.totalCapped) === '1',
    nextCursor: response.headers.get(PAGE_HEADERS.nextCursor),
  };
}

/**
 * A list read a page at a time under `queryKey` (written by the one file in src/api/ that owns
 * the call): the first page without a cursor, each next one from the last page's `nextCursor`.
 * Reading `signal` is what lets TanStack Query abort a request once nobody waits for it.
 */
export function pagedQueryOptions<T>(queryKey: TQueryKey) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage<T>(queryKey, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}
