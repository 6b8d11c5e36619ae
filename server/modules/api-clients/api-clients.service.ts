import { eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { API_TOKEN_TTL_SECONDS, type TApiClient, type TCreateApiClient, type TCreatedApiClient, type TTokenResponse } from '#domain/api-clients';
import { FHIR_RESOURCE_TYPES, scopesAllow, ZFhirScope } from '#domain/fhir';
import { recordAudit } from '../../audit/audit-writer.ts';
import { apiClients, apiTokens } from '../../db/schema/api-clients.ts';
import { users } from '../../db/schema/auth.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import { actingAs, type RequestContext, type SignedInContext } from '../../http/request-context.ts';
import { readOf } from '../../scope/reader.ts';
import { newSecret } from '../../sessions/api-token.ts';
import { hashToken } from '../../sessions/session-store.ts';
import { findApiClient, findIssuableClient, listApiClients } from './api-clients.queries.ts';

export const API_CLIENT_READS = {
  list: readOf({ action: 'fhir.client_list', entityType: 'api_client', run: ({ db }) => listApiClients(db), shows: () => null }),
};

/** Creates a client acting as an active staff account; the secret is in this answer only. */
export async function createApiClient(deps: Deps, ctx: SignedInContext, input: TCreateApiClient): Promise<TCreatedApiClient> {
  const [acting] = await deps.db.select({ isActive: users.isActive }).from(users).where(eq(users.id, input.actingUserId));
  if (!acting?.isActive) throw invalid('actingUserId', 'Choose an active staff account');
  const { secret, hash } = newSecret();
  const id = await inTransaction(deps, async (tx) => {
    const [row] = await tx
      .insert(apiClients)
      .values({ name: input.name, actingUserId: input.actingUserId, scopes: [...new Set(input.scopes)], secretHash: hash, createdBy: ctx.user.id })
      .returning({ id: apiClients.id });
    await recordAudit(tx, ctx, { action: 'fhir.client_create', entityType: 'api_client', entityId: row!.id });
    return row!.id;
  });
  return { ...(await findApiClient(deps.db, id))!, clientSecret: secret };
}

/** Revokes a client: its tokens stop working at once (they are deleted with the revocation). */
export async function revokeApiClient(deps: Deps, ctx: SignedInContext, id: string): Promise<TApiClient> {
  await inTransaction(deps, async (tx) => {
    const [row] = await tx
      .update(apiClients)
      .set({ revokedAt: sql`coalesce(${apiClients.revokedAt}, ${deps.config.now().toISOString()}::timestamptz)`, revokedBy: ctx.user.id })
      .where(eq(apiClients.id, id))
      .returning({ id: apiClients.id });
    if (!row) throw notFound('API client not found');
    await tx.delete(apiTokens).where(eq(apiTokens.clientId, id));
    await recordAudit(tx, ctx, { action: 'fhir.client_revoke', entityType: 'api_client', entityId: id });
  });
  return (await findApiClient(deps.db, id))!;
}

const oauth = (code: 'oauth.invalidClient' | 'oauth.invalidRequest' | 'oauth.invalidScope', error: string) =>
  new HttpError(code, { extra: { error }, ...(code === 'oauth.invalidClient' ? { headers: { 'www-authenticate': 'Basic realm="fhir"' } } : {}) });

/**
 * OAuth 2.0 client credentials: a token for the client's scopes (or the part of them asked
 * for), good for an hour. A wrong secret, a revoked client or an inactive acting user is the
 * same 401, recorded as a refusal; an issued token is recorded with the acting user as actor.
 */
export async function issueToken(
  deps: Deps,
  ctx: RequestContext,
  input: { grantType?: string | undefined; clientId?: string | undefined; clientSecret?: string | undefined; scope?: string | undefined },
): Promise<TTokenResponse> {
  if (input.grantType !== 'client_credentials' || !input.clientId || !input.clientSecret) throw oauth('oauth.invalidRequest', 'invalid_request');
  const now = deps.config.now();
  const client = z.uuid().safeParse(input.clientId).success ? await findIssuableClient(deps.db, input.clientId, hashToken(input.clientSecret)) : null;
  if (!client) {
    await recordAudit(deps.db, ctx, { action: 'fhir.token', entityType: 'api_client', entityId: input.clientId.slice(0, 100), outcome: 'denied' });
    throw oauth('oauth.invalidClient', 'invalid_client');
  }
  const asked = input.scope?.split(/\s+/).filter(Boolean) ?? null;
  // A narrower scope is granted when every type it opens is one the client holds.
  const held = (scope: string) =>
    ZFhirScope.safeParse(scope).success && FHIR_RESOURCE_TYPES.every((type) => !scopesAllow([scope], type) || scopesAllow(client.scopes, type));
  if (asked && !asked.every(held)) throw oauth('oauth.invalidScope', 'invalid_scope');
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
