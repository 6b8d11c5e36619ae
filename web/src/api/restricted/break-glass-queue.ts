import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBreakGlassGrant, TBreakGlassReview } from '#domain/restricted-records';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

export type TQueueStatus = 'open' | 'closed' | 'all';
const queueKey = (status: TQueueStatus) => ['/api/admin/break-glass', { status }] as const;

/** GET /api/admin/break-glass (admins): the review queue of emergency accesses, newest first. */
export const fetchBreakGlassQueue = (status: TQueueStatus) => fetchQueryKey<TBreakGlassGrant[]>(queueKey(status));

export function useBreakGlassQueue(status: TQueueStatus) {
  return useQuery(queryOptions({ queryKey: queueKey(status), queryFn: () => fetchBreakGlassQueue(status) }));
}

/** PUT /api/admin/break-glass/{id}: the review's disposition, once. */
export async function reviewBreakGlass({ id, ...review }: TBreakGlassReview & { id: string }): Promise<TBreakGlassGrant> {
  const response = await apiRequest('PUT', `/api/admin/break-glass/${encodeURIComponent(id)}`, review);
  return (await response.json()) as TBreakGlassGrant;
}

export function useReviewBreakGlass() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewBreakGlass, onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/break-glass'] }) });
}
