import { createHash, randomBytes } from 'node:crypto';
import { LINK_LIFETIME_HOURS, SET_PASSWORD_PATH, type TPasswordLink } from '#domain/users';
import type { Queryable } from '../../db/database.ts';
import { insertLink } from './users.queries.ts';

const HOUR_MS = 3_600_000;

export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new one-time link for the user (and the end of any earlier one): 256 random bits, of which
 * the database keeps only a hash. The admin is shown the link once, to hand it over.
 * `createdBy` is null when no one signed in made it (npm run create-admin).
 */
export async function issueLink(
  tx: Queryable,
  input: { userId: string; purpose: 'invite' | 'reset'; createdBy: string | null; origin: string },
  now: Date,
): Promise<TPasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_HOURS[input.purpose] * HOUR_MS);
  await insertLink(tx, { userId: input.userId, purpose: input.purpose, tokenHash: hashLinkToken(token), createdBy: input.createdBy, expiresAt }, now);
  return { url: `${input.origin}${SET_PASSWORD_PATH}#token=${token}`, purpose: input.purpose, expiresAt: expiresAt.toISOString() };
}
