import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRoleAssignment } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** PUT /api/admin/users/role: the spec's role assignment form, by email. */
export async function assignRole(assignment: TRoleAssignment): Promise<void> {
  await apiRequest('PUT', '/api/admin/users/role', assignment);
}

export function useAssignRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: assignRole, onSuccess: () => invalidateAdminUsers(queryClient) });
}
