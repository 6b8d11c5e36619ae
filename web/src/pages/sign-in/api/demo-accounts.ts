import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TDemoAccounts } from '#domain/auth';
import { ApiError, fetchQueryKey } from '../../../lib/api-request.ts';

const demoAccountsKey = ['/api/auth/demo-users'] as const;

/** GET /api/auth/demo-users: the demo clinic's accounts in demo mode; 404 (read as null) otherwise. */
export async function fetchDemoAccounts(): Promise<TDemoAccounts | null> {
  try {
    return await fetchQueryKey<TDemoAccounts>(demoAccountsKey);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function demoAccountsQueryOptions() {
  return queryOptions({ queryKey: demoAccountsKey, queryFn: fetchDemoAccounts });
}

export function useDemoAccounts() {
  return useQuery(demoAccountsQueryOptions());
}
