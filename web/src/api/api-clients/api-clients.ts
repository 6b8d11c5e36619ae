import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApiClient, TCreateApiClient, TCreatedApiClient } from '#domain/api-clients';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const clientsKey = ['/api/admin/api-clients'] as const;

/** GET /api/admin/api-clients (admins): the FHIR API's clients, newest first. */
export const fetchApiClients = () => fetchQueryKey<TApiClient[]>(clientsKey);

export function useApiClients() {
  return useQuery(queryOptions({ queryKey: clientsKey, queryFn: fetchApiClients }));
}

/** POST /api/admin/api-clients: the answer carries the secret, shown once. */
export async function createApiClient(input: TCreateApiClient): Promise<TCreatedApiClient> {
  const response = await apiRequest('POST', '/api/admin/api-clients', input);
  return (await response.json()) as TCreatedApiClient;
}

export function useCreateApiClient() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createApiClient, onSuccess: () => client.invalidateQueries({ queryKey: clientsKey }) });
}

/** POST /api/admin/api-clients/{id}/revoke: its tokens stop working at once. */
export async function revokeApiClient(id: string): Promise<TApiClient> {
  const response = await apiRequest('POST', `/api/admin/api-clients/${encodeURIComponent(id)}/revoke`);
  return (await response.json()) as TApiClient;
}

export function useRevokeApiClient() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeApiClient, onSuccess: () => client.invalidateQueries({ queryKey: clientsKey }) });
}
