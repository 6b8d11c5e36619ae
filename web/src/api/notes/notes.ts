import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQueries, type QueryClient } from '@tanstack/react-query';
import type { TNote, TNoteStatus } from '#domain/notes';
import { PAGE_HEADERS } from '#domain/paging';
import { apiRequest, fetchQueryKey, queryKeyToUrl } from '../../lib/api-request.ts';

/** Every note read (lists, counts, single notes, histories) starts with this segment. */
export const notesRootKey = ['/api/notes'] as const;

/** Cards per request; 'Load more' reads the next. */
export const NOTES_PAGE_SIZE = 20;

/** The list's filters (GET /api/notes): one patient, one status. The server adds the note scope. */
export interface TNoteFilter {
  patientId?: string | undefined;
  status?: TNoteStatus | undefined;
}

export interface TNotesPage {
  notes: TNote[];
  /** Matching notes the user may see; always present on the first page. */
  total: number | null;
  nextCursor: string | null;
}

const listKey = (filter: TNoteFilter, limit: number) =>
  [...notesRootKey, { patientId: filter.patientId, status: filter.status, limit }] as const;

/** GET /api/notes?patientId=&status=&limit=&cursor=: one page, newest change first. */
export async function fetchNotesPage(filter: TNoteFilter, limit: number, cursor: string | null): Promise<TNotesPage> {
  const [path, params] = listKey(filter, limit);
  const response = await apiRequest('GET', queryKeyToUrl([path, { ...params, cursor: cursor ?? undefined }]));
  const total = response.headers.get(PAGE_HEADERS.total);
  return {
    notes: (await response.json()) as TNote[],
    total: total === null ? null : Number(total),
    nextCursor: response.headers.get(PAGE_HEADERS.nextCursor),
  };
}

export function notesQueryOptions(filter: TNoteFilter, limit = NOTES_PAGE_SIZE) {
  return infiniteQueryOptions({
    queryKey: listKey(filter, limit),
    queryFn: ({ pageParam }) => fetchNotesPage(filter, limit, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

/** A tab's notes, a page at a time. */
export function useNotes(filter: TNoteFilter) {
  return useInfiniteQuery(notesQueryOptions(filter));
}

/**
 * How many notes the user may see in each status (the Workflow tab): one row per status is
 * read, for the `x-total-count` the first page carries.
 */
export function useNoteStatusCounts(statuses: readonly TNoteStatus[], patientId: string | undefined, enabled: boolean) {
  return useQueries({
    queries: statuses.map((status) => ({
      ...queryOptions({
        // limit 1: a key of its own, apart from the lists' pages.
        queryKey: listKey({ patientId, status }, 1),
        queryFn: async () => (await fetchNotesPage({ patientId, status }, 1, null)).total,
      }),
      enabled,
      placeholderData: keepPreviousData,
    })),
  });
}

const noteKey = (id: string) => [...notesRootKey, id] as const;

/** GET /api/notes/:id: one note in the user's scope (404 otherwise). */
export function fetchNote(id: string): Promise<TNote> {
  return fetchQueryKey<TNote>(noteKey(id));
}

/** Reads one note afresh, whatever is cached (after someone else changed it). */
export function reloadNote(client: QueryClient, id: string): Promise<TNote> {
  return client.fetchQuery({ queryKey: noteKey(id), queryFn: () => fetchNote(id), staleTime: 0 });
}

/** After any note write: every list, count, note and history is read again. */
export function invalidateNotes(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: notesRootKey });
}
