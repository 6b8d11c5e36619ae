import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** PUT /api/admin/users/{id}/status: deactivate or reactivate. */
export async function setUserActive({ id, isActive }: { id: string; isActive: boolean }): Promise<void> {
  await apiRequest('PUT', `/api/admin/users/${encodeURIComponent(id)}/status`, { isActive });
}

export function useSetUserActive() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setUserActive, onSuccess: () => invalidateAdminUsers(queryClient) });
}
