import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabConnection, TSaveLabConnectionInput } from '#domain/lab-interfaces';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabConnections } from './lab-connections.ts';

export interface TUpdateLabConnectionRequest {
  id: string;
  body: TSaveLabConnectionInput;
}

/**
 * PUT /api/admin/lab-connections/:id: the lab's settings and its codes, the codes replaced as a
 * whole, against the version read (`updatedAt`: 409 `record.stale`). 400 names each refused field.
 */
export async function updateLabConnection({ id, body }: TUpdateLabConnectionRequest): Promise<TLabConnection> {
  const response = await apiRequest('PUT', `/api/admin/lab-connections/${encodeURIComponent(id)}`, body);
  return (await response.json()) as TLabConnection;
}

export function useUpdateLabConnection() {
  const queryClient = useQueryClient();
  // Settled, not only succeeded: after a 409 the list is read again, so reopening shows the new version.
  return useMutation({ mutationFn: updateLabConnection, onSettled: () => void invalidateLabConnections(queryClient) });
}
