import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAssignScribe, TNoteAwaitingReview } from '#domain/notes';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotes } from './notes.ts';

/**
 * PUT /api/notes/:id/scribe ('Add Scribe'): 200 with the note as the queue shows it. 409
 * `workflow.illegalMove` when it is no longer waiting for review, `record.stale` when it changed
 * since it was read; 400 for a scribe who is not an active one.
 */
export async function assignScribe({ id, ...body }: TAssignScribe & { id: string }): Promise<TNoteAwaitingReview> {
  const response = await apiRequest('PUT', `/api/notes/${encodeURIComponent(id)}/scribe`, body);
  return (await response.json()) as TNoteAwaitingReview;
}

export function useAssignScribe() {
  const queryClient = useQueryClient();
  // The queue and the lists (the note's scribe) are read again, refused or not.
  return useMutation({ mutationFn: assignScribe, onSettled: () => void invalidateNotes(queryClient) });
}
