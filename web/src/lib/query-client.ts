import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { fetchQueryKey, type TQueryKey } from './api-request.ts';
import { apiErrorCode, isUnauthorizedError } from './api-errors.ts';
import { checkSession } from './session.ts';
import { handleLoggedOut } from './logged-out.ts';

/** The default read: GET the URL the query key names (spec section 7). */
export const defaultQueryFn: QueryFunction = ({ queryKey }) => fetchQueryKey(queryKey as TQueryKey);

function onAnyError(error: unknown): void {
  if (isUnauthorizedError(error)) handleLoggedOut();
  // The clinic began requiring a second factor of this user while the page was open: read the
  // session's standing again, and the enrolment screen takes over.
  else if (apiErrorCode(error) === 'auth.secondFactorEnrolment') void checkSession();
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
