import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type {
  TConfirmedFactor,
  TConfirmTotp,
  TFactorProof,
  TMyFactors,
  TTotpSetup,
  TWebauthnAssertion,
  TWebauthnRegistration,
  TWebauthnSetup,
} from '#domain/second-factor';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';
import { checkSession } from '../../lib/session.ts';

const myFactorsKey = ['/api/auth/factors'] as const;

/** GET /api/auth/factors: the user's own factors, recovery codes left, and where she stands. */
export const fetchMyFactors = () => fetchQueryKey<TMyFactors>(myFactorsKey);

export function myFactorsQueryOptions() {
  return queryOptions({ queryKey: myFactorsKey, queryFn: fetchMyFactors });
}

export function useMyFactors() {
  return useQuery(myFactorsQueryOptions());
}

/** A change to her factors: the list again, and the session's standing (an enrolment opens the app). */
function factorsChanged(client: QueryClient) {
  void client.invalidateQueries({ queryKey: myFactorsKey });
  void checkSession();
}

/** POST /api/auth/factors/totp: a new authenticator, pending its first code (a proof when she has a factor already). */
export async function beginTotp(proof?: TFactorProof): Promise<TTotpSetup> {
  const response = await apiRequest('POST', '/api/auth/factors/totp', proof ? { proof } : {});
  return (await response.json()) as TTotpSetup;
}

export function useBeginTotp() {
  return useMutation({ mutationFn: beginTotp });
}

/** POST /api/auth/factors/totp/{id}/confirm: the first code; the first factor also answers the recovery codes. */
export async function confirmTotp({ factorId, ...input }: TConfirmTotp & { factorId: string }): Promise<TConfirmedFactor> {
  const response = await apiRequest('POST', `/api/auth/factors/totp/${encodeURIComponent(factorId)}/confirm`, input);
  return (await response.json()) as TConfirmedFactor;
}

/**
 * Only the list is read again here: the session's new standing is read once the recovery codes
 * are saved (the caller's onDone), or an enrolment screen would give way to the app over them.
 */
export function useConfirmTotp() {
  const client = useQueryClient();
  return useMutation({ mutationFn: confirmTotp, onSuccess: () => client.invalidateQueries({ queryKey: myFactorsKey }) });
}

/** POST /api/auth/factors/{id}/remove, with a fresh proof. */
export async function removeFactor({ factorId, proof }: { factorId: string; proof: TFactorProof }): Promise<void> {
  await apiRequest('POST', `/api/auth/factors/${encodeURIComponent(factorId)}/remove`, { proof });
}

export function useRemoveFactor() {
  const client = useQueryClient();
  return useMutation({ mutationFn: removeFactor, onSuccess: () => factorsChanged(client) });
}

/** POST /api/auth/recovery-codes, with a fresh proof: ten new codes, shown once. */
export async function renewRecoveryCodes(proof: TFactorProof): Promise<string[]> {
  const response = await apiRequest('POST', '/api/auth/recovery-codes', { proof });
  return ((await response.json()) as { recoveryCodes: string[] }).recoveryCodes;
}

export function useRenewRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({ mutationFn: renewRecoveryCodes, onSuccess: () => factorsChanged(client) });
}

/**
 * A passkey or security key, end to end: the server's options (after a proof, when she has a
 * factor already), the browser's own prompt, then the answer confirmed. The browser's prompt may
 * be cancelled: that rejects with its own error, and nothing is added.
 */
export async function addWebauthn({ proof, label }: { proof?: TFactorProof; label?: string }): Promise<TConfirmedFactor> {
  const begun = await apiRequest('POST', '/api/auth/factors/webauthn', proof ? { proof } : {});
  const { factorId, options } = (await begun.json()) as TWebauthnSetup;
  const response = (await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON })) as TWebauthnRegistration;
  const confirmed = await apiRequest('POST', `/api/auth/factors/webauthn/${encodeURIComponent(factorId)}/confirm`, { response, ...(label ? { label } : {}) });
  return (await confirmed.json()) as TConfirmedFactor;
}

export function useAddWebauthn() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addWebauthn, onSuccess: () => client.invalidateQueries({ queryKey: myFactorsKey }) });
}

/** A fresh proof with a passkey or security key: the server's challenge, answered by the browser's prompt. */
export async function webauthnProof(): Promise<TFactorProof> {
  const answer = await apiRequest('POST', '/api/auth/proof/webauthn');
  const { options } = (await answer.json()) as { options: PublicKeyCredentialRequestOptionsJSON };
  return { method: 'webauthn', response: (await startAuthentication({ optionsJSON: options })) as TWebauthnAssertion };
}
