import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAcceptApiClient, TApiClient } from '#domain/api-clients';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const myClientsKey = ['/api/auth/api-clients'] as const;

/** GET /api/auth/api-clients: the API clients reading as the signed-in user (issue 47). */
export const fetchMyApiClients = () => fetchQueryKey<TApiClient[]>(myClientsKey);

export function useMyApiClients() {
  return useQuery(queryOptions({ queryKey: myClientsKey, queryFn: fetchMyApiClients }));
}

/** POST /api/auth/api-clients/{id}/accept: with a fresh proof when she has a second factor. */
export async function acceptApiClient({ id, ...input }: TAcceptApiClient & { id: string }): Promise<TApiClient> {
  const response = await apiRequest('POST', `/api/auth/api-clients/${encodeURIComponent(id)}/accept`, input);
  return (await response.json()) as TApiClient;
}

export function useAcceptApiClient() {
  const client = useQueryClient();
  return useMutation({ mutationFn: acceptApiClient, onSuccess: () => client.invalidateQueries({ queryKey: myClientsKey }) });
}

/** POST /api/auth/api-clients/{id}/revoke: declines one waiting, or stops one she accepted. */
export async function declineApiClient(id: string): Promise<TApiClient> {
  const response = await apiRequest('POST', `/api/auth/api-clients/${encodeURIComponent(id)}/revoke`);
  return (await response.json()) as TApiClient;
}

export function useDeclineApiClient() {
  const client = useQueryClient();
  return useMutation({ mutationFn: declineApiClient, onSuccess: () => client.invalidateQueries({ queryKey: myClientsKey }) });
}
