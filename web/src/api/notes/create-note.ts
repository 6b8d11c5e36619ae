import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateNote, TNote } from '#domain/notes';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotes } from './notes.ts';

/**
 * POST /api/notes: 201 with the note. The author is the caller; `status` 'draft' (Save Draft)
 * or 'submitted_to_scribe' (Submit to Scribe), which the workflow lets only some roles ask for.
 */
export async function createNote(body: TCreateNote): Promise<TNote> {
  const response = await apiRequest('POST', '/api/notes', body);
  return (await response.json()) as TNote;
}

export function useCreateNote() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createNote, onSuccess: () => void invalidateNotes(queryClient) });
}
