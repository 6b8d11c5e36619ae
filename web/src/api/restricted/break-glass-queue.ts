import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TBreakGlassGrant, TBreakGlassReview } from '#domain/restricted-records';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

export type TQueueStatus = 'open' | 'closed' | 'all';
const queueKey = (status: TQueueStatus) => ['/api/admin/break-glass', { status }] as const;

/** GET /api/admin/break-glass (admins): the review queue of emergency accesses, newest first. */
export const fetchBreakGlassQueue = (status: TQueueStatus) => fetchQueryKey<TBreakGlassGrant[]>(queueKey(status));

/** While an access still runs, the queue is read again every half minute: its end (by time, or ended early) makes it reviewable. */
const RUNNING_REFRESH_MS = 30_000;

export function useBreakGlassQueue(status: TQueueStatus) {
  return useQuery(
    queryOptions({
      queryKey: queueKey(status),
      queryFn: () => fetchBreakGlassQueue(status),
      refetchInterval: (query) =>
        query.state.data?.some((grant) => !grant.reviewedAt && Date.parse(grant.expiresAt) > Date.now()) ? RUNNING_REFRESH_MS : false,
    }),
  );
}

/** A new emergency access tells the admins (a notification): the open queue is read again with it (issue 50). */
export function invalidateBreakGlassQueue(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: ['/api/admin/break-glass'] });
}

/** PUT /api/admin/break-glass/{id}: the review's disposition, once. */
export async function reviewBreakGlass({ id, ...review }: TBreakGlassReview & { id: string }): Promise<TBreakGlassGrant> {
  const response = await apiRequest('PUT', `/api/admin/break-glass/${encodeURIComponent(id)}`, review);
  return (await response.json()) as TBreakGlassGrant;
}

export function useReviewBreakGlass() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewBreakGlass, onSuccess: () => invalidateBreakGlassQueue(client) });
}
