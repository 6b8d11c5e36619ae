import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TInvite, TInviteResult } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** POST /api/admin/users: invite someone; the answer carries the one-time link, shown once. */
export async function inviteUser(invite: TInvite): Promise<TInviteResult> {
  const response = await apiRequest('POST', '/api/admin/users', invite);
  return (await response.json()) as TInviteResult;
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteUser, onSuccess: () => invalidateAdminUsers(queryClient) });
}
