import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TNote, TUpdateNote } from '#domain/notes';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateNotes } from './notes.ts';

export interface TUpdateNoteRequest {
  id: string;
  /**
   * What changes (type, content, attachments), a workflow move (`status`), or both; an
   * amendment's reason; always with the `updatedAt` of the note as shown.
   */
  changes: TUpdateNote;
}

/**
 * PUT /api/notes/:id: 200 with the note. 409 `record.stale` (changed since it was read),
 * `workflow.illegalMove` (no such move now, or no longer editable); 403 for a role the move or
 * edit is not for; 400 for an amendment without a reason.
 */
export async function updateNote({ id, changes }: TUpdateNoteRequest): Promise<TNote> {
  const response = await apiRequest('PUT', `/api/notes/${encodeURIComponent(id)}`, changes);
  return (await response.json()) as TNote;
}

export function useUpdateNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNote,
    // Refused or not, what is shown may be out of date (someone else moved it first).
    onSettled: () => void invalidateNotes(queryClient),
  });
}

/** Someone else changed this note after it was read. */
export function isStaleNote(error: unknown): boolean {
  return apiErrorCode(error) === 'record.stale';
}
