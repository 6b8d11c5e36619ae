import { index, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
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
export const apiClients = pgTable('api_clients', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  actingUserId: uuid('acting_user_id')
    .notNull()
    .references(() => users.id),
  scopes: text('scopes').array().notNull(),
  /** SHA-256 of the secret: it is 32 random bytes, so a fast hash is enough (nothing to guess). */
  secretHash: varchar('secret_hash', { length: 64 }).notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: at('created_at').notNull().defaultNow(),
  /** When the acting account accepted reading through this client; null while it waits. */
  acceptedAt: at('accepted_at'),
  revokedAt: at('revoked_at'),
  revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  lastUsedAt: at('last_used_at'),
});

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
