import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TDemoAccounts } from '#domain/auth';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { fetchQueryKey } from '../../lib/api-request.ts';

const demoAccountsKey = ['/api/auth/demo-users'] as const;

/** GET /api/auth/demo-users: the demo clinic's accounts in demo mode; not found (read as null) otherwise. */
export async function fetchDemoAccounts(): Promise<TDemoAccounts | null> {
  try {
    return await fetchQueryKey<TDemoAccounts>(demoAccountsKey);
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === 'record.notFound' || code === 'route.notFound') return null;
    throw error;
  }
}

export function demoAccountsQueryOptions() {
  return queryOptions({ queryKey: demoAccountsKey, queryFn: fetchDemoAccounts });
}

export function useDemoAccounts() {
  return useQuery(demoAccountsQueryOptions());
}
