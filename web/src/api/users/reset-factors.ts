import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFactorProof } from '#domain/second-factor';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAdminUsers } from './users.ts';

/** POST /api/admin/users/{id}/factors/reset, with the admin's own fresh proof. */
export async function resetUserFactors({ id, proof }: { id: string; proof: TFactorProof }): Promise<void> {
  await apiRequest('POST', `/api/admin/users/${encodeURIComponent(id)}/factors/reset`, { proof });
}

export function useResetUserFactors() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resetUserFactors, onSuccess: () => invalidateAdminUsers(client) });
}
