import { useMutation } from '@tanstack/react-query';
import type { TCurrentUser, TLogin } from '#domain/auth';
import type { TSecondFactorNeeded } from '#domain/second-factor';
import { apiRequest } from '../../lib/api-request.ts';
import { setSignedInUser } from '../../lib/session.ts';

/**
 * POST /api/auth/login: 200 with the user and a session cookie; 202 when the user has a second
 * factor (no session yet: the second step follows); or 400/401/403/429 with a message.
 */
export async function signIn(credentials: TLogin): Promise<TCurrentUser | TSecondFactorNeeded> {
  const response = await apiRequest('POST', '/api/auth/login', credentials);
  return (await response.json()) as TCurrentUser | TSecondFactorNeeded;
}

export const needsSecondFactor = (answer: TCurrentUser | TSecondFactorNeeded): answer is TSecondFactorNeeded => 'secondFactor' in answer;

export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    // Nothing from another user can be cached here: signing out and losing the session both
    // end in a full page load, which empties the cache.
    onSuccess: (answer) => {
      if (!needsSecondFactor(answer)) setSignedInUser(answer);
    },
  });
}
