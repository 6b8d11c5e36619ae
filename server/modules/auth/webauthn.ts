import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
} from '@simplewebauthn/server';
import type { TWebauthnAssertion, TWebauthnRegistration } from '#domain/second-factor';
import type { TFactorRow } from './second-factor.queries.ts';

/**
 * The relying party: this app as the browser sees it. Passkeys are bound to the host name, so
 * PUBLIC_URL (or the address the request came to) decides; an IP address cannot be one.
 */
export interface TRelyingParty {
  id: string;
  origin: string;
  name: string;
}

export const relyingParty = (origin: string, name: string): TRelyingParty => ({ id: new URL(origin).hostname, origin, name });

/**
 * Options for a new credential: a passkey where the device offers one (resident key preferred),
 * any security key otherwise; the user's existing credentials excluded, so one key is not added
 * twice. No attestation: which maker's key it is does not matter to a clinic.
 */
export function registrationOptions(rp: TRelyingParty, user: { id: string; email: string; name: string }, existing: TFactorRow[]) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.filter((f) => f.credentialId).map((f) => ({ id: f.credentialId!, transports: transportsOf(f) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    extensions: { credProps: true },
  });
}

/**
 * The new credential checked against its challenge, origin and relying party. A passkey
 * (discoverable or synced between devices) must have verified its user (a PIN, a fingerprint):
 * it is a whole sign-in factor on its own device. A plain security key need only be touched.
 */
export async function verifyRegistration(rp: TRelyingParty, challenge: string, response: TWebauthnRegistration) {
  const checked = await verifyRegistrationResponse({
    response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!checked?.verified) return null;
  const info = checked.registrationInfo;
  const credProps = response.clientExtensionResults.credProps as { rk?: unknown } | undefined;
  const passkey = credProps?.rk === true || info.credentialDeviceType === 'multiDevice';
  if (passkey && !info.userVerified) return null;
  return {
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    signCount: info.credential.counter,
    transports: response.response.transports ?? [],
    passkey,
  };
}

export function authenticationOptions(rp: TRelyingParty, credentials: TFactorRow[]) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: credentials.filter((f) => f.credentialId).map((f) => ({ id: f.credentialId!, transports: transportsOf(f) })),
    userVerification: 'preferred',
  });
}

/** The answer checked against the credential it names; the new signature count, or null. */
export async function verifyAssertion(rp: TRelyingParty, challenge: string, factor: TFactorRow, response: TWebauthnAssertion): Promise<number | null> {
  const checked = await verifyAuthenticationResponse({
    response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: factor.credentialId!,
      publicKey: new Uint8Array(Buffer.from(factor.publicKey!, 'base64url')),
      counter: factor.signCount ?? 0,
      transports: transportsOf(factor),
    },
    requireUserVerification: factor.passkey,
  }).catch(() => null);
  return checked?.verified ? checked.authenticationInfo.newCounter : null;
}

const transportsOf = (f: TFactorRow) => (f.transports ?? []) as AuthenticatorTransportFuture[];
