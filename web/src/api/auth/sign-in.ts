import { useMutation } from '@tanstack/react-query';
import type { TCurrentUser, TLogin } from '#domain/auth';
import { apiRequest } from '../../lib/api-request.ts';
import { setSignedInUser } from '../../lib/session.ts';

/** POST /api/auth/login: 200 with the user and a session cookie, or 400/401/403/429 with a message. */
export async function signIn(credentials: TLogin): Promise<TCurrentUser> {
  const response = await apiRequest('POST', '/api/auth/login', credentials);
  return (await response.json()) as TCurrentUser;
}

export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    // Nothing from another user can be cached here: signing out and losing the session both
    // end in a full page load, which empties the cache.
    onSuccess: setSignedInUser,
  });
}
