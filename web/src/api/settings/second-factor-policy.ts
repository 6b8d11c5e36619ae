import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSecondFactorPolicy, TStoredSecondFactorPolicy } from '#domain/second-factor';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const policyKey = ['/api/admin/settings/second-factor'] as const;

/** GET /api/admin/settings/second-factor (admins): each role's policy, and since when it is required. */
export const fetchSecondFactorPolicy = () => fetchQueryKey<TStoredSecondFactorPolicy>(policyKey);

export function useSecondFactorPolicy() {
  return useQuery(queryOptions({ queryKey: policyKey, queryFn: fetchSecondFactorPolicy }));
}

/** PUT /api/admin/settings/second-factor: 200 with the policy now in force. */
export async function updateSecondFactorPolicy(input: TSecondFactorPolicy): Promise<TStoredSecondFactorPolicy> {
  const response = await apiRequest('PUT', '/api/admin/settings/second-factor', input);
  return (await response.json()) as TStoredSecondFactorPolicy;
}

export function useUpdateSecondFactorPolicy() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateSecondFactorPolicy, onSuccess: (policy) => client.setQueryData(policyKey, policy) });
}
