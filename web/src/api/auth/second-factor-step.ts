import { useMutation } from '@tanstack/react-query';
import type { TCurrentUser } from '#domain/auth';
import type { TFactorProof } from '#domain/second-factor';
import { apiRequest } from '../../lib/api-request.ts';
import { setSignedInUser } from '../../lib/session.ts';

/** POST /api/auth/second-factor: the sign-in's second step (the challenge is in an httpOnly cookie). */
export async function submitSecondFactor(proof: TFactorProof): Promise<TCurrentUser> {
  const response = await apiRequest('POST', '/api/auth/second-factor', proof);
  return (await response.json()) as TCurrentUser;
}

export function useSecondFactorStep() {
  return useMutation({ mutationFn: submitSecondFactor, onSuccess: setSignedInUser });
}
