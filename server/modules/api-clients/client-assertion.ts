import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, importJWK, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { ASSERTION_ALGORITHMS, ASSERTION_MAX_LIFETIME_SECONDS } from '#domain/api-clients';

/**
 * SMART Backend Services' client authentication (`private_key_jwt`, RFC 7523): a client proves
 * who it is with a short-lived JWT signed by its private key, checked here against the public
 * keys it registered or publishes. The checks are `jose`'s (a maintained JOSE library), never
 * hand-written crypto; what this file adds is SMART's rules on top.
 */

/** Clock difference between the client and us taken on `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** A public key as registered: which algorithm it signs with, from its type and curve. */
function algorithmOf(key: Record<string, unknown>): (typeof ASSERTION_ALGORITHMS)[number] | null {
  if (key.alg !== undefined) return (ASSERTION_ALGORITHMS as readonly unknown[]).includes(key.alg) ? (key.alg as (typeof ASSERTION_ALGORITHMS)[number]) : null;
  if (key.kty === 'RSA') return 'RS384';
  return key.kty === 'EC' && key.crv === 'P-384' ? 'ES384' : null;
}

/**
 * Why a registered JWK Set cannot be used, or null: each key must be a public RSA key of at
 * least 2048 bits (RS384) or an EC P-384 key (ES384) that imports. Checked when a client is
 * made, so a key that could never verify is refused to the admin, not to the client later.
 */
export async function publicKeysProblem(jwks: { keys: Record<string, unknown>[] }): Promise<string | null> {
  for (const [index, key] of jwks.keys.entries()) {
    const alg = algorithmOf(key);
    const which = `Key ${index + 1}${typeof key.kid === 'string' ? ` (${key.kid})` : ''}`;
    if (!alg) return `${which}: only RS384 (RSA) and ES384 (EC P-384) keys are taken`;
    if (key.use !== undefined && key.use !== 'sig') return `${which}: not a signing key (use "${String(key.use)}")`;
    try {
      await importJWK({ ...(key as JWK), alg }, alg);
    } catch {
      return `${which}: not a valid ${alg} public key`;
    }
    if (alg === 'RS384' && Buffer.from(String(key.n), 'base64url').length < 256) return `${which}: an RSA key must have at least 2048 bits`;
  }
  return null;
}

// A published JWK Set is fetched when an assertion names a key not yet seen, and kept 10
// minutes (jose's cache): one per URL for the process.
const remoteSets = new Map<string, JWTVerifyGetKey>();
function remoteSet(url: string): JWTVerifyGetKey {
  let set = remoteSets.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
    remoteSets.set(url, set);
  }
  return set;
}

/** The issuer an assertion claims, before anything is verified (to find the client); null when it is no JWT. */
export function claimedIssuer(assertion: string): string | null {
  try {
    const iss = decodeJwt(assertion).iss;
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

export type TAssertionCheck = { ok: true; jti: string; expiresAt: Date } | { ok: false; reason: string };

/**
 * Verifies a client's assertion: signed (RS384 or ES384) by one of its keys, issued by and about
 * the client (`iss` = `sub` = its id), for this token endpoint (`aud`), unexpired and expiring no
 * more than five minutes from now, and carrying a `jti` (whose reuse the caller refuses).
 */
export async function checkClientAssertion(
  assertion: string,
  client: { id: string; jwks: { keys: Record<string, unknown>[] } | null; jwksUrl: string | null },
  audience: string,
  now: Date,
): Promise<TAssertionCheck> {
  const keys = client.jwksUrl ? remoteSet(client.jwksUrl) : createLocalJWKSet(client.jwks as { keys: JWK[] });
  try {
    const { payload } = await jwtVerify(assertion, keys, {
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: client.id,
      subject: client.id,
      audience,
      requiredClaims: ['exp', 'jti'],
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    const exp = payload.exp!;
    if (exp > now.getTime() / 1000 + ASSERTION_MAX_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS)
      return { ok: false, reason: `The assertion must expire within ${ASSERTION_MAX_LIFETIME_SECONDS / 60} minutes` };
    if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 200)
      return { ok: false, reason: 'The assertion needs a jti of at most 200 characters' };
    return { ok: true, jti: payload.jti, expiresAt: new Date(exp * 1000) };
  } catch (error) {
    return { ok: false, reason: reasonOf(error, client.jwksUrl !== null) };
  }
}

/** What a refused assertion is told (RFC 6749's error_description): enough to fix it, nothing of the keys. */
function reasonOf(error: unknown, remoteKeys: boolean): string {
  if (error instanceof errors.JWTExpired) return 'The assertion has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `The assertion's "${error.claim}" claim is missing or wrong`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The assertion must be signed with RS384 or ES384';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed)
    return "The assertion's signature does not verify with the client's keys";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'The assertion is not a valid signed JWT';
  // Anything else failed on the way to the keys: a published set that is unreachable, not 200, or not a JWK Set.
  return remoteKeys ? "The client's published keys could not be read" : 'The assertion is not a valid signed JWT';
}
