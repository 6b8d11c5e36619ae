import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { TNote } from '#domain/notes';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { notesRootKey } from './notes.ts';

const noteKey = (id: string) => [...notesRootKey, id] as const;

/** GET /api/notes/:id: one note in the user's scope (404 otherwise). */
export function fetchNote(id: string): Promise<TNote> {
  return fetchQueryKey<TNote>(noteKey(id));
}

export function noteQueryOptions(id: string) {
  return queryOptions({ queryKey: noteKey(id), queryFn: () => fetchNote(id) });
}

/** Reads one note afresh, whatever is cached (after someone else changed it). */
export function reloadNote(client: QueryClient, id: string): Promise<TNote> {
  return client.fetchQuery({ ...noteQueryOptions(id), staleTime: 0 });
}
