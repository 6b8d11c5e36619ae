import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabConnection, TSaveLabConnectionInput } from '#domain/lab-interfaces';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabConnections } from './lab-connections.ts';

/** POST /api/admin/lab-connections: 201 with the lab and its codes. 400 names each refused field (`codes.0.code`). */
export async function createLabConnection(body: TSaveLabConnectionInput): Promise<TLabConnection> {
  const response = await apiRequest('POST', '/api/admin/lab-connections', body);
  return (await response.json()) as TLabConnection;
}

export function useCreateLabConnection() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createLabConnection, onSuccess: () => void invalidateLabConnections(queryClient) });
}
