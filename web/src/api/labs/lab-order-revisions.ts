import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TLabResultRevision } from '#domain/labs';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { labOrdersRootKey } from './lab-orders.ts';

const revisionsKey = (id: string) => [...labOrdersRootKey, id, 'revisions'] as const;

/** GET /api/lab-orders/:id/revisions: each corrected value before and after, who, when and why, oldest first. */
export function fetchLabOrderRevisions(id: string): Promise<TLabResultRevision[]> {
  return fetchQueryKey<TLabResultRevision[]>(revisionsKey(id));
}

export function labOrderRevisionsQueryOptions(id: string) {
  return queryOptions({ queryKey: revisionsKey(id), queryFn: () => fetchLabOrderRevisions(id) });
}

/** Read only for an order whose results were corrected (`enabled`): the others have no history to show. */
export function useLabOrderRevisions(id: string, enabled: boolean) {
  return useQuery({ ...labOrderRevisionsQueryOptions(id), enabled });
}
