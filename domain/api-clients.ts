import { z } from 'zod';
import { ZErrorBody } from './errors.ts';
import { ZFhirScope } from './fhir.ts';
import { ZRole } from './roles.ts';
import { ZFactorProof } from './second-factor.ts';
import { lineString, requiredLine } from './text.ts';

/**
 * API clients of the FHIR API (issue 35; docs/decisions/fhir.md): software an admin lets read
 * the record with a staff account's access, through OAuth 2.0 client credentials.
 */
export const API_TOKEN_TTL_SECONDS = 3600;
/** The token endpoint; a signed assertion is addressed (`aud`) to its full URL. */
export const OAUTH_TOKEN_PATH = '/api/oauth/token';

/**
 * How a client proves who it is at the token endpoint: a secret the app makes and shows once
 * (small clinics, simple tools), or a JWT it signs with its own private key, checked against the
 * public keys it registered (SMART Backend Services' `private_key_jwt`; no secret ever travels).
 */
export const API_CLIENT_AUTH_METHODS = ['client_secret', 'private_key_jwt'] as const;
export type TApiClientAuthMethod = (typeof API_CLIENT_AUTH_METHODS)[number];
export const apiClientAuthMethodLabel: Record<TApiClientAuthMethod, string> = {
  client_secret: 'Client secret',
  private_key_jwt: 'Signed key (private_key_jwt)',
};

/** The signing algorithms taken on a client's assertion (SMART Backend Services requires both). */
export const ASSERTION_ALGORITHMS = ['RS384', 'ES384'] as const;
/** SMART: an assertion expires no more than five minutes after it is presented. */
export const ASSERTION_MAX_LIFETIME_SECONDS = 300;
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** JWK members that hold private key material (RFC 7518 6.2.2, 6.3.2, 6.4): a client registers its public key only. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const ZPublicJwk = z
  .looseObject({ kty: z.enum(['RSA', 'EC'], 'Each key must be an RSA or EC (P-384) key'), kid: lineString().max(200).optional() })
  .refine((key) => !PRIVATE_JWK_MEMBERS.some((member) => member in key), 'This is a private key: register the public key only');
/** A JWK Set of the client's public keys (RS384 or ES384). */
export const ZPublicJwks = z.object({ keys: z.array(ZPublicJwk).min(1, 'Give at least one key').max(10, 'At most 10 keys') });

const ZJwksUrl = z
  .url('Enter the https URL of the JWK Set')
  .max(500)
  // https, so the keys cannot be swapped on the way; a loopback address is a test's or a proxy's.
  .refine((url) => /^https:\/\//i.test(url) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//i.test(url), 'The JWK Set URL must use https');

export const ZCreateApiClient = z
  .object({
    name: requiredLine('Name', 100),
    /** The staff account whose access it reads with: her role, record scope and care teams. */
    actingUserId: z.string().uuid('Choose a staff account'),
    scopes: z.array(ZFhirScope).min(1, 'Choose at least one scope').max(20),
    /** Optional: a secret unless said. */
    authMethod: z.enum(API_CLIENT_AUTH_METHODS).optional(),
    /** With `private_key_jwt`: its public keys, or the URL where it publishes them (one of the two). */
    jwks: ZPublicJwks.optional(),
    jwksUrl: ZJwksUrl.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const byKey = input.authMethod === 'private_key_jwt';
    if (!byKey) {
      for (const path of ['jwks', 'jwksUrl'] as const) {
        if (input[path] !== undefined) ctx.addIssue({ code: 'custom', path: [path], message: 'Keys are only for a client that signs with a key' });
      }
    } else if ((input.jwks === undefined) === (input.jwksUrl === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['jwks'], message: 'Give the public keys or the URL where they are published (one of the two)' });
    }
  });
export type TCreateApiClient = z.infer<typeof ZCreateApiClient>;

export const ZApiClient = z.object({
  id: z.string().uuid(),
  name: z.string(),
  actingUser: z.object({ id: z.string().uuid(), name: z.string(), role: ZRole, isActive: z.boolean() }),
  scopes: z.array(z.string()),
  authMethod: z.enum(API_CLIENT_AUTH_METHODS),
  /** A key-signing client's keys as registered: their ids (or types), or the URL they are read from. */
  keyIds: z.array(z.string()),
  jwksUrl: z.string().nullable(),
  /** Who made it: the acting account sees who asked to read as her. */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  /** When the acting account accepted it; null while it waits (it gets no token until then). */
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type TApiClient = z.infer<typeof ZApiClient>;

/** The answer to creating one: the secret, shown this once and never again (null for a client that signs with a key). */
export const ZCreatedApiClient = ZApiClient.extend({ clientSecret: z.string().nullable() });
export type TCreatedApiClient = z.infer<typeof ZCreatedApiClient>;

/** A scope as staff read it: "Every resource type", or the type it opens. */
export const fhirScopeLabel = (scope: string) => {
  if (scope === 'system/*.read') return 'Every resource type';
  const send = /^system\/(\w+)\.(c|write)$/.exec(scope)?.[1];
  if (send) return `Send ${send} (lab results)`;
  return /^system\/(\w+)\.(read|rs)$/.exec(scope)?.[1] ?? scope;
};

/** Where a client stands: waiting for its acting account to accept, in use, or revoked. */
export type TApiClientStanding = 'waiting' | 'active' | 'revoked';
export const apiClientStanding = (c: Pick<TApiClient, 'acceptedAt' | 'revokedAt'>): TApiClientStanding =>
  c.revokedAt ? 'revoked' : c.acceptedAt ? 'active' : 'waiting';

/** POST /api/auth/api-clients/{id}/accept: a fresh second factor, when she has one. */
export const ZAcceptApiClient = z.object({ proof: ZFactorProof.optional() }).strict();
export type TAcceptApiClient = z.infer<typeof ZAcceptApiClient>;

/** POST /api/oauth/token (form or JSON): client credentials, the secret in the body or in Basic auth. */
export const ZTokenRequest = z.object({
  grant_type: z.string().max(50).optional(),
  client_id: z.string().max(100).optional(),
  client_secret: z.string().max(200).optional(),
  /** private_key_jwt: the assertion's type (JWT_BEARER_ASSERTION) and the signed JWT. */
  client_assertion_type: z.string().max(200).optional(),
  client_assertion: z.string().max(8000).optional(),
  scope: z.string().max(2000).optional(),
});
export const ZTokenResponse = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), scope: z.string() });
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

/** The token endpoint's refusals: the API's error body, and OAuth's own `error` code (RFC 6749 5.2). */
export const ZOAuthErrorBody = ZErrorBody.extend({
  error: z.enum(['invalid_request', 'invalid_client', 'invalid_scope', 'unsupported_grant_type']).optional(),
  error_description: z.string().optional(),
});
