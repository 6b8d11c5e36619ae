import { keepPreviousData, queryOptions, useInfiniteQuery, useQueries, type QueryClient } from '@tanstack/react-query';
import type { TNote, TNoteStatus } from '#domain/notes';
import type { TPage } from '#domain/paging';
import { fetchPage, pagedQueryOptions } from '../../lib/paged-query.ts';

/** Every note read (lists, counts, single notes, histories) starts with this segment. */
export const notesRootKey = ['/api/notes'] as const;

/** Cards per request; 'Load more' reads the next. */
export const NOTES_PAGE_SIZE = 20;

/** The list's filters (GET /api/notes): one patient, one status. The server adds the note scope. */
export interface TNoteFilter {
  patientId?: string | undefined;
  status?: TNoteStatus | undefined;
}

const listKey = (filter: TNoteFilter, limit: number) => [...notesRootKey, { patientId: filter.patientId, status: filter.status, limit }] as const;

/** GET /api/notes?patientId=&status=&limit=&cursor=: one page, newest change first, with the total the user may see. */
export function fetchNotesPage(filter: TNoteFilter, limit: number, cursor: string | null, signal?: AbortSignal): Promise<TPage<TNote>> {
  return fetchPage<TNote>(listKey(filter, limit), cursor, signal);
}

export function notesQueryOptions(filter: TNoteFilter, limit = NOTES_PAGE_SIZE) {
  return pagedQueryOptions<TNote>(listKey(filter, limit));
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

/** After any note write: every list, count, note and history is read again. */
export function invalidateNotes(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: notesRootKey });
}
