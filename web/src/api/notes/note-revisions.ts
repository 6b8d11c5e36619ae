import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TNoteRevision } from '#domain/notes';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { notesRootKey } from './notes.ts';

const revisionsKey = (id: string) => [...notesRootKey, id, 'revisions'] as const;

/** GET /api/notes/:id/revisions: every change of a note, oldest first. */
export function fetchNoteRevisions(id: string): Promise<TNoteRevision[]> {
  return fetchQueryKey<TNoteRevision[]>(revisionsKey(id));
}

export function noteRevisionsQueryOptions(id: string) {
  // Read afresh each time the history opens: a note moves on while the page stays open.
  return queryOptions({ queryKey: revisionsKey(id), queryFn: () => fetchNoteRevisions(id), staleTime: 0 });
}

export function useNoteRevisions(id: string) {
  return useQuery(noteRevisionsQueryOptions(id));
}
