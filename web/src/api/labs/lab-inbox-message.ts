import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabInboxDetail } from '#domain/lab-interfaces';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { labInboxRootKey } from './lab-inbox.ts';

const messageKey = (id: string) => [...labInboxRootKey, id] as const;

/** GET /api/lab-inbox/:id: one message with its text as segments and numbered fields (404 when unknown or out of reach). */
export function fetchLabInboxMessage(id: string): Promise<TLabInboxDetail> {
  return fetchQueryKey<TLabInboxDetail>(messageKey(id));
}

export function labInboxMessageQueryOptions(id: string) {
  return queryOptions({ queryKey: messageKey(id), queryFn: () => fetchLabInboxMessage(id) });
}

export function useLabInboxMessage(id: string) {
  return useQuery(labInboxMessageQueryOptions(id));
}

/** A write answered with the message as it now is: shown at once, before the lists are read again. */
export function setLabInboxMessage(client: QueryClient, message: TLabInboxDetail): void {
  client.setQueryData(messageKey(message.id), message);
}

/** Reads one message afresh, whatever is cached (after someone else changed it). */
export function reloadLabInboxMessage(client: QueryClient, id: string): Promise<TLabInboxDetail> {
  return client.fetchQuery({ ...labInboxMessageQueryOptions(id), staleTime: 0 });
}
