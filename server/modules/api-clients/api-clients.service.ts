import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  API_TOKEN_TTL_SECONDS,
  JWT_BEARER_ASSERTION,
  type TAcceptApiClient,
  type TApiClient,
  type TCreateApiClient,
  type TCreatedApiClient,
  type TTokenResponse,
} from '#domain/api-clients';
import { staffName } from '#domain/auth';
import { FHIR_CREATABLE, FHIR_RESOURCE_TYPES, scopesAllow, scopesAllowCreate, ZFhirScope } from '#domain/fhir';
import { recordAudit } from '../../audit/audit-writer.ts';
import { apiClientAssertions, apiClients, apiTokens } from '../../db/schema/api-clients.ts';
import { users } from '../../db/schema/auth.ts';
import type { Queryable } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import { actingAs, type RequestContext, type SignedInContext } from '../../http/request-context.ts';
import { readOf } from '../../scope/reader.ts';
import { newSecret } from '../../sessions/api-token.ts';
import { hashToken } from '../../sessions/session-store.ts';
import { requireFreshFactor, userHasFactor } from '../auth/second-factor.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { checkClientAssertion, claimedIssuer, publicKeysProblem } from './client-assertion.ts';
import { findApiClient, findIssuableClient, listApiClients, listClientsActingAs } from './api-clients.queries.ts';

export const API_CLIENT_READS = {
  list: readOf({ action: 'fhir.client_list', entityType: 'api_client', run: ({ db }) => listApiClients(db), shows: () => null }),
};

/**
 * Creates a client acting as an active staff account; the secret is in this answer only. A
 * client reading as its creator is in use at once; one reading as someone else is a delegation
 * she must accept first, and she is told (docs/decisions/restricted-records.md).
 */
export async function createApiClient(deps: Deps, ctx: SignedInContext, input: TCreateApiClient): Promise<TCreatedApiClient> {
  const [acting] = await deps.db.select({ isActive: users.isActive }).from(users).where(eq(users.id, input.actingUserId));
  if (!acting?.isActive) throw invalid('actingUserId', 'Choose an active staff account');
  const own = input.actingUserId === ctx.user.id;
  const byKey = input.authMethod === 'private_key_jwt';
  const keysProblem = input.jwks ? await publicKeysProblem(input.jwks) : null;
  if (keysProblem) throw invalid('jwks', keysProblem);
  // A client that signs with its key has no secret: nothing is shown, nothing could leak.
  const { secret, hash } = byKey ? { secret: null, hash: null } : newSecret();
  const id = await inTransaction(deps, async (tx, raise) => {
    const [row] = await tx
      .insert(apiClients)
      .values({
        name: input.name,
        actingUserId: input.actingUserId,
        scopes: [...new Set(input.scopes)],
        authMethod: byKey ? 'private_key_jwt' : 'client_secret',
        secretHash: hash,
        jwks: input.jwks ?? null,
        jwksUrl: input.jwksUrl ?? null,
        createdBy: ctx.user.id,
        acceptedAt: own ? deps.config.now() : null,
      })
      .returning({ id: apiClients.id });
    await recordAudit(tx, ctx, { action: 'fhir.client_create', entityType: 'api_client', entityId: row!.id });
    if (!own)
      await notify(tx, raise, {
        userId: input.actingUserId,
        type: 'account_changed',
        title: 'An API client asks to read as you',
        message: `${staffName(ctx.user)} made "${input.name}" to read the record with your access. It works only once you accept it in Security.`,
        entityId: row!.id,
      });
    return row!.id;
  });
  return { ...(await findApiClient(deps.db, id))!, clientSecret: secret };
}

/** Revokes a client: its tokens stop working at once (they are deleted with the revocation). */
export async function revokeApiClient(deps: Deps, ctx: SignedInContext, id: string): Promise<TApiClient> {
  await inTransaction(deps, (tx) => revoke(tx, deps, ctx, id));
  return (await findApiClient(deps.db, id))!;
}

/** Revokes a client (only one reading as `actingAs`, when given) and deletes its tokens; a 404 when there is none. */
async function revoke(tx: Queryable, deps: Deps, ctx: SignedInContext, id: string, actingAs?: string): Promise<void> {
  const [row] = await tx
    .update(apiClients)
    .set({ revokedAt: sql`coalesce(${apiClients.revokedAt}, ${deps.config.now().toISOString()}::timestamptz)`, revokedBy: ctx.user.id })
    .where(and(eq(apiClients.id, id), actingAs ? eq(apiClients.actingUserId, actingAs) : undefined))
    .returning({ id: apiClients.id });
  if (!row) throw notFound('API client not found');
  await tx.delete(apiTokens).where(eq(apiTokens.clientId, id));
  await recordAudit(tx, ctx, { action: 'fhir.client_revoke', entityType: 'api_client', entityId: id });
}

/** The clients reading as the signed-in user, for her Security page (no patient data). */
export const apiClientsFor = (deps: Deps, ctx: SignedInContext): Promise<TApiClient[]> => listClientsActingAs(deps.db, ctx.user.id);

/**
 * The acting account accepts a client reading as her, after a fresh second factor when she has
 * one (a session taken over must not hand her access to software). Only she may: an admin
 * cannot accept for her. A revoked client stays revoked.
 */
export async function acceptApiClient(deps: Deps, ctx: SignedInContext, id: string, input: TAcceptApiClient): Promise<TApiClient> {
  const client = await findApiClient(deps.db, id);
  if (!client || client.actingUser.id !== ctx.user.id) throw notFound('API client not found');
  if (client.revokedAt) throw new HttpError('apiClient.revoked');
  if (client.acceptedAt) return client;
  if (await userHasFactor(deps.db, ctx.user.id)) {
    if (!input.proof) throw new HttpError('signIn.badCode', { message: 'Confirm with your second factor to accept.' });
    await requireFreshFactor(deps, ctx, input.proof);
  }
  await inTransaction(deps, async (tx) => {
    await tx
      .update(apiClients)
      .set({ acceptedAt: deps.config.now() })
      .where(and(eq(apiClients.id, id), isNull(apiClients.acceptedAt), isNull(apiClients.revokedAt)));
    await recordAudit(tx, ctx, { action: 'fhir.client_accept', entityType: 'api_client', entityId: id });
  });
  return (await findApiClient(deps.db, id))!;
}

/** The acting account declines a client waiting for her, or stops one she accepted: it is revoked. */
export async function declineApiClient(deps: Deps, ctx: SignedInContext, id: string): Promise<TApiClient> {
  await inTransaction(deps, (tx) => revoke(tx, deps, ctx, id, ctx.user.id));
  return (await findApiClient(deps.db, id))!;
}

const oauth = (
  code: 'oauth.invalidClient' | 'oauth.invalidRequest' | 'oauth.invalidScope' | 'oauth.unsupportedGrantType',
  error: string,
  description?: string,
) =>
  new HttpError(code, {
    ...(description ? { message: description } : {}),
    extra: { error, ...(description ? { error_description: description } : {}) },
    ...(code === 'oauth.invalidClient' ? { headers: { 'www-authenticate': 'Basic realm="fhir"' } } : {}),
  });

type TTokenInput = {
  grantType?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  clientAssertionType?: string | undefined;
  clientAssertion?: string | undefined;
  scope?: string | undefined;
  /** This token endpoint's URL: a signed assertion must be addressed to it (`aud`). */
  audience: string;
};

/** The hashes of two secrets, compared in constant time. */
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

type TIssuable = NonNullable<Awaited<ReturnType<typeof findIssuableClient>>>;
/** Whether the client proved itself the way it was made to: the assertion it signed (to be spent), or its secret. */
async function proofOf(
  client: TIssuable,
  input: TTokenInput,
  now: Date,
): Promise<{ ok: true; assertion: { jti: string; expiresAt: Date } | null } | { ok: false; reason?: string }> {
  if (input.clientAssertion !== undefined) {
    if (client.authMethod !== 'private_key_jwt') return { ok: false, reason: 'This client authenticates with its secret' };
    const checked = await checkClientAssertion(input.clientAssertion, client, input.audience, now);
    return checked.ok ? { ok: true, assertion: checked } : checked;
  }
  const secretMatches = client.authMethod === 'client_secret' && sameHash(client.secretHash!, hashToken(input.clientSecret!));
  return secretMatches ? { ok: true, assertion: null } : { ok: false };
}

/**
 * OAuth 2.0 client credentials: a token for the client's scopes (or the part of them asked
 * for), good for an hour. The client proves itself the way it was made to: its secret, or an
 * assertion signed with its key (SMART Backend Services; client-assertion.ts), each used once.
 * A wrong secret or signature, a replayed assertion, a revoked client or an inactive acting user
 * is the same 401, recorded as a refusal; an issued token is recorded with the acting user as actor.
 */
export async function issueToken(deps: Deps, ctx: RequestContext, input: TTokenInput): Promise<TTokenResponse> {
  // RFC 6749 5.2: a grant this server does not issue is named as such, before what it would
  // need; an empty one is a missing one (3.1).
  if (input.grantType && input.grantType !== 'client_credentials') throw oauth('oauth.unsupportedGrantType', 'unsupported_grant_type');
  const byAssertion = input.clientAssertionType !== undefined || input.clientAssertion !== undefined;
  // One way to authenticate per request (RFC 6749 2.3): a secret beside an assertion is refused.
  const assertionSent = input.clientAssertionType === JWT_BEARER_ASSERTION && !!input.clientAssertion && !input.clientSecret;
  if (!input.grantType || (byAssertion ? !assertionSent : !input.clientId || !input.clientSecret)) throw oauth('oauth.invalidRequest', 'invalid_request');
  const claimed = byAssertion ? claimedIssuer(input.clientAssertion!) : null;
  const clientId = input.clientId ?? claimed ?? '';
  const now = deps.config.now();
  const refuse = async (description?: string) => {
    await recordAudit(deps.db, ctx, { action: 'fhir.token', entityType: 'api_client', entityId: clientId.slice(0, 100) || 'unknown', outcome: 'denied' });
    return oauth('oauth.invalidClient', 'invalid_client', description);
  };
  if (byAssertion) {
    const problem =
      claimed === null ? 'The assertion is not a valid signed JWT' : claimed !== clientId ? 'The assertion\'s "iss" claim is not the client_id sent' : null;
    if (problem) throw await refuse(problem);
  }
  const client = z.uuid().safeParse(clientId).success ? await findIssuableClient(deps.db, clientId) : null;
  if (!client) throw await refuse();
  const proof = await proofOf(client, input, now);
  if (!proof.ok) throw await refuse(proof.reason);
  const assertion = proof.assertion;
  const asked = input.scope?.split(/\s+/).filter(Boolean) ?? null;
  // A narrower scope is granted when every type it opens is one the client holds.
  const held = (scope: string) =>
    ZFhirScope.safeParse(scope).success &&
    FHIR_RESOURCE_TYPES.every((type) => !scopesAllow([scope], type) || scopesAllow(client.scopes, type)) &&
    FHIR_CREATABLE.every((type) => !scopesAllowCreate([scope], type) || scopesAllowCreate(client.scopes, type));
  if (asked && !asked.every(held)) throw oauth('oauth.invalidScope', 'invalid_scope');
  if (assertion) {
    // Its jti is kept until it expires; the same assertion again finds it and is refused. Kept
    // before the token is made: an assertion whose token failed is spent all the same.
    await deps.db.delete(apiClientAssertions).where(lt(apiClientAssertions.expiresAt, now));
    const [fresh] = await deps.db
      .insert(apiClientAssertions)
      .values({ clientId: client.id, jti: assertion.jti, expiresAt: assertion.expiresAt })
      .onConflictDoNothing()
      .returning({ jti: apiClientAssertions.jti });
    if (!fresh) throw await refuse('This assertion was used already: sign a new one, with a new jti');
  }
  const scopes = asked ?? client.scopes;
  const { secret: token, hash } = newSecret();
  await inTransaction(deps, async (tx) => {
    await tx.insert(apiTokens).values({ tokenHash: hash, clientId: client.id, scopes, expiresAt: new Date(now.getTime() + API_TOKEN_TTL_SECONDS * 1000) });
    await tx.update(apiClients).set({ lastUsedAt: now }).where(eq(apiClients.id, client.id));
    // Expired tokens are cleared as new ones are issued: the table holds the live ones.
    await tx.delete(apiTokens).where(lt(apiTokens.expiresAt, now));
    // The row's actor is the account the token reads as.
    await recordAudit(tx, actingAs(ctx, client.actingUser), { action: 'fhir.token', entityType: 'api_client', entityId: client.id });
  });
  return { access_token: token, token_type: 'Bearer', expires_in: API_TOKEN_TTL_SECONDS, scope: scopes.join(' ') };
}
