import { useMutation } from '@tanstack/react-query';
import type { TCurrentUser } from '#domain/auth';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { TFactorProof, TWebauthnAssertion } from '#domain/second-factor';
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

/** The second step by passkey: the challenge's options, the browser's prompt, its answer as the proof. */
export async function passkeyProofForSignIn(): Promise<TFactorProof> {
  const answer = await apiRequest('POST', '/api/auth/second-factor/webauthn');
  const { options } = (await answer.json()) as { options: PublicKeyCredentialRequestOptionsJSON };
  return { method: 'webauthn', response: (await startAuthentication({ optionsJSON: options })) as TWebauthnAssertion };
}

export function usePasskeySignIn() {
  return useMutation({ mutationFn: async () => submitSecondFactor(await passkeyProofForSignIn()), onSuccess: setSignedInUser });
}
