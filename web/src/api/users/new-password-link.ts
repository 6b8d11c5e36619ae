import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPasswordLink } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** POST /api/admin/users/{id}/password-link: a fresh invite or reset link. */
export async function createPasswordLink(id: string): Promise<TPasswordLink> {
  const response = await apiRequest('POST', `/api/admin/users/${encodeURIComponent(id)}/password-link`);
  return (await response.json()) as TPasswordLink;
}

export function usePasswordLink() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPasswordLink, onSuccess: () => invalidateAdminUsers(queryClient) });
}
