import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { at, id } from './columns.ts';

/**
 * Other software reading the FHIR API (issue 35; docs/decisions/fhir.md): an admin names it,
 * the staff account whose access it reads with (so every rule of the app applies to it as to
 * that person), and the resource types it may read. Its secret is shown once and kept only as a
 * hash; revoking it ends its tokens at once. Reading as someone is a delegation she accepts
 * (`acceptedAt`; at once when she made the client herself): until then it gets no token
 * (docs/decisions/restricted-records.md).
 */
export const apiClients = pgTable(
  'api_clients',
  {
    id: id(),
    name: varchar('name', { length: 100 }).notNull(),
    actingUserId: uuid('acting_user_id')
      .notNull()
      .references(() => users.id),
    scopes: text('scopes').array().notNull(),
    /**
     * How it proves who it is at the token endpoint: a shared secret (`client_secret`), or a JWT
     * it signs with its private key (`private_key_jwt`, SMART Backend Services) checked against the
     * public keys registered here (`jwks`) or published at `jwksUrl`. Exactly one way per client.
     */
    authMethod: varchar('auth_method', { length: 20 }).$type<'client_secret' | 'private_key_jwt'>().notNull().default('client_secret'),
    /** SHA-256 of the secret: it is 32 random bytes, so a fast hash is enough (nothing to guess). Null for a key-signing client. */
    secretHash: varchar('secret_hash', { length: 64 }),
    /** The client's public keys (a JWK Set, public parts only), when registered here. */
    jwks: jsonb('jwks').$type<{ keys: Record<string, unknown>[] }>(),
    /** Where the client publishes its JWK Set, when it rotates its keys itself. */
    jwksUrl: varchar('jwks_url', { length: 500 }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    /** When the acting account accepted reading through this client; null while it waits. */
    acceptedAt: at('accepted_at'),
    revokedAt: at('revoked_at'),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    // One way to prove itself, never two: a secret, or keys held here or published at a URL.
    check(
      'api_clients_one_auth_method',
      sql`(${t.authMethod} = 'client_secret' and ${t.secretHash} is not null and ${t.jwks} is null and ${t.jwksUrl} is null)
        or (${t.authMethod} = 'private_key_jwt' and ${t.secretHash} is null and (${t.jwks} is null) <> (${t.jwksUrl} is null))`,
    ),
  ],
);

/** An access token issued to a client (client credentials): its hash, its scopes, until when. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('api_tokens_client_idx').on(t.clientId), index('api_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * The `jti` of each signed assertion a client used, until it expires: a JWT presented a second
 * time is refused (SMART Backend Services; RFC 7523 3), so a copied assertion gets no token.
 */
export const apiClientAssertions = pgTable(
  'api_client_assertions',
  {
    clientId: uuid('client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    jti: varchar('jti', { length: 200 }).notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.jti] }), index('api_client_assertions_expires_idx').on(t.expiresAt)],
);
