import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRole } from '#domain/roles';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** PUT /api/admin/users/{id}/role. */
export async function changeRole({ id, role }: { id: string; role: TRole }): Promise<void> {
  await apiRequest('PUT', `/api/admin/users/${encodeURIComponent(id)}/role`, { role });
}

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeRole, onSuccess: () => invalidateAdminUsers(queryClient) });
}
