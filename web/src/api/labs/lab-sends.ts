import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabSend, TLabSendStatus } from '#domain/lab-interfaces';
import { fetchQueryKey } from '../../lib/api-request.ts';

const labSendsRootKey = ['/api/admin/lab-sends'] as const;
const labSendsKey = (status: TLabSendStatus) => [...labSendsRootKey, { status }] as const;

/** GET /api/admin/lab-sends?status=: orders' sends to their labs in one state, the latest change first (at most 200). */
export function fetchLabSends(status: TLabSendStatus): Promise<TLabSend[]> {
  return fetchQueryKey<TLabSend[]>(labSendsKey(status));
}

export function labSendsQueryOptions(status: TLabSendStatus) {
  return queryOptions({ queryKey: labSendsKey(status), queryFn: () => fetchLabSends(status) });
}

export function useLabSends(status: TLabSendStatus) {
  return useQuery(labSendsQueryOptions(status));
}

/** After a send was queued again: every state's list is read again. */
export function invalidateLabSends(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: labSendsRootKey });
}
