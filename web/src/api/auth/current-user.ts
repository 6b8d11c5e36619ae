import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TCurrentUser } from '#domain/auth';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { fetchQueryKey } from '../../lib/api-request.ts';

const currentUserKey = ['/api/auth/user'] as const;

/** GET /api/auth/user. 'Not signed in' (spec section 4) is an answer here, so it reads as null. */
export async function fetchCurrentUser(): Promise<TCurrentUser | null> {
  try {
    return await fetchQueryKey<TCurrentUser>(currentUserKey);
  } catch (error) {
    if (apiErrorCode(error) === 'auth.unauthenticated') return null;
    throw error;
  }
}

export function currentUserQueryOptions() {
  return queryOptions({ queryKey: currentUserKey, queryFn: fetchCurrentUser });
}

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}

/** After sign-in: show the new user at once, then re-read it from the server. */
export function setSignedInUser(client: QueryClient, user: TCurrentUser): void {
  client.setQueryData(currentUserKey, user);
  void client.invalidateQueries({ queryKey: currentUserKey });
}

/** Re-checks the session without blanking the screen (the cached user stays until the answer). */
export function recheckSession(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: currentUserKey });
}
