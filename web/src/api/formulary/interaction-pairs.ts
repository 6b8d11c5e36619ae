import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TChangeInteractionPairBody, TInteractionPair, TInteractionPairs, TNewInteractionPairBody } from '#domain/interaction-pairs';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const interactionPairsKey = ['/api/admin/interaction-pairs'] as const;

/** GET /api/admin/interaction-pairs: the shipped pairs (read-only) and the clinic's, active first. */
export const useInteractionPairs = () => useQuery({ queryKey: interactionPairsKey, queryFn: () => fetchQueryKey<TInteractionPairs>(interactionPairsKey) });

/**
 * POST /api/admin/interaction-pairs (id null), or PUT /api/admin/interaction-pairs/:id with the
 * fields changed and the `updatedAt` read (409 record.stale over another's change); a retirement
 * or restoration is `{ isActive }`. 400 names each refused field ('ingredientsA.1': an ingredient
 * the formulary lacks). Re-reads the list afterwards, refused or not.
 */
export function useSaveInteractionPair() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (save: { id: null; body: TNewInteractionPairBody } | { id: string; body: TChangeInteractionPairBody }) =>
      (
        await apiRequest(
          save.id ? 'PUT' : 'POST',
          save.id ? `/api/admin/interaction-pairs/${encodeURIComponent(save.id)}` : '/api/admin/interaction-pairs',
          save.body,
        )
      ).json() as Promise<TInteractionPair>,
    onSettled: () => void client.invalidateQueries({ queryKey: interactionPairsKey }),
  });
}
