import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TNoteAwaitingReview } from '#domain/notes';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { notesRootKey } from './notes.ts';

/** Under the notes' root, so whatever re-reads the notes re-reads the queue too. */
const awaitingReviewKey = [...notesRootKey, 'awaiting-review'] as const;

/** GET /api/notes/awaiting-review ('Add Scribe'): the notes waiting for review, oldest first, without their text. */
export function fetchAwaitingReview(): Promise<TNoteAwaitingReview[]> {
  return fetchQueryKey<TNoteAwaitingReview[]>(awaitingReviewKey);
}

export const awaitingReviewQueryOptions = () => queryOptions({ queryKey: awaitingReviewKey, queryFn: fetchAwaitingReview });

export function useAwaitingReview() {
  return useQuery(awaitingReviewQueryOptions());
}
