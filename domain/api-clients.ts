import { z } from 'zod';
import { ZErrorBody } from './errors.ts';
import { ZFhirScope } from './fhir.ts';
import { ZRole } from './roles.ts';
import { ZFactorProof } from './second-factor.ts';
import { requiredLine } from './text.ts';

/**
 * API clients of the FHIR API (issue 35; docs/decisions/fhir.md): software an admin lets read
 * the record with a staff account's access, through OAuth 2.0 client credentials.
 */
export const API_TOKEN_TTL_SECONDS = 3600;

export const ZCreateApiClient = z
  .object({
    name: requiredLine('Name', 100),
    /** The staff account whose access it reads with: her role, record scope and care teams. */
    actingUserId: z.string().uuid('Choose a staff account'),
    scopes: z.array(ZFhirScope).min(1, 'Choose at least one scope').max(20),
  })
  .strict();
export type TCreateApiClient = z.infer<typeof ZCreateApiClient>;

export const ZApiClient = z.object({
  id: z.string().uuid(),
  name: z.string(),
  actingUser: z.object({ id: z.string().uuid(), name: z.string(), role: ZRole, isActive: z.boolean() }),
  scopes: z.array(z.string()),
  /** Who made it: the acting account sees who asked to read as her. */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  /** When the acting account accepted it; null while it waits (it gets no token until then). */
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type TApiClient = z.infer<typeof ZApiClient>;

/** The answer to creating one: the secret, shown this once and never again. */
export const ZCreatedApiClient = ZApiClient.extend({ clientSecret: z.string() });
export type TCreatedApiClient = z.infer<typeof ZCreatedApiClient>;

/** A scope as staff read it: "Every resource type", or the type it opens. */
export const fhirScopeLabel = (scope: string) => (scope === 'system/*.read' ? 'Every resource type' : (/^system\/(\w+)\.(read|rs)$/.exec(scope)?.[1] ?? scope));

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
  scope: z.string().max(2000).optional(),
});
export const ZTokenResponse = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), scope: z.string() });
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

/** The token endpoint's refusals: the API's error body, and OAuth's own `error` code (RFC 6749 5.2). */
export const ZOAuthErrorBody = ZErrorBody.extend({
  error: z.enum(['invalid_request', 'invalid_client', 'invalid_scope', 'unsupported_grant_type']).optional(),
});
