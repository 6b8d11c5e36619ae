import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { fetchQueryKey, type TQueryKey } from './api-request.ts';
import { isUnauthorizedError } from './api-errors.ts';
import { handleLoggedOut } from './logged-out.ts';

/** The default read: GET the URL the query key names (spec section 7). */
export const defaultQueryFn: QueryFunction = ({ queryKey }) => fetchQueryKey(queryKey as TQueryKey);

function onAnyError(error: unknown): void {
  if (isUnauthorizedError(error)) handleLoggedOut();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Any call that finds the session gone ends in the same logged-out handling.
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      // Spec section 7: never stale, no refetch on focus or interval, no retries.
      queries: { queryFn: defaultQueryFn, staleTime: Infinity, refetchOnWindowFocus: false, refetchInterval: false, retry: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
