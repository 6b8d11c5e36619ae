import { sql } from 'drizzle-orm';
import { bigint, boolean, char, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import type { TFactorKind } from '#domain/second-factor';
import { users } from './auth.ts';
import { at, id } from './columns.ts';

/**
 * A user's second factors (issue 33). A TOTP factor is pending until its first code is accepted
 * (`confirmed_at`); its secret is stored sealed with a key kept outside the database
 * (server/secrets/secret-box.ts). `last_step` is the last TOTP time step accepted, so a code is
 * taken once. WebAuthn credentials keep their id, public key and signature counter.
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10 }).notNull().$type<TFactorKind>(),
    label: varchar('label', { length: 60 }).notNull(),
    totpSecret: text('totp_secret'),
    lastStep: bigint('last_step', { mode: 'number' }),
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: jsonb('transports').$type<string[]>(),
    /** A passkey (discoverable or synced): it must verify its user (PIN, fingerprint) each time. */
    passkey: boolean('passkey').notNull().default(false),
    /** The registration's challenge while a WebAuthn credential is pending. */
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: at('created_at').notNull().defaultNow(),
    confirmedAt: at('confirmed_at'),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    index('user_factors_user_idx').on(t.userId),
    uniqueIndex('user_factors_credential_unique').on(t.credentialId),
    check('user_factors_kind', sql`kind in ('totp', 'webauthn')`),
  ],
);

/** Single-use recovery codes: only a SHA-256 of each is kept (80 random bits, so a hash is enough). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    usedAt: at('used_at'),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A sign-in waiting for its second factor: the password (or the identity provider) was accepted,
 * no session exists yet. The browser holds the token (only its SHA-256 is here) for a few
 * minutes and a few tries.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: id(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * How the first step was passed ('password', 'oidc'); or 'proof': a signed-in user's fresh
     * WebAuthn proof for a sensitive action, tied to her session by `token_hash`.
     */
    via: varchar('via', { length: 10 }).notNull().$type<'password' | 'oidc' | 'proof'>(),
    /** Where the browser goes once signed in. */
    next: text('next').notNull().default('/'),
    /** The WebAuthn challenge last handed out for this sign-in. */
    webauthnChallenge: text('webauthn_challenge'),
    failures: integer('failures').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sign_in_challenges_token_unique').on(t.tokenHash), index('sign_in_challenges_expires_idx').on(t.expiresAt)],
);
