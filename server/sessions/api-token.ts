import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import type { TRole } from '#domain/roles';
import { queryRows, type Queryable } from '../db/database.ts';
import { hashToken } from './session-store.ts';

/** Who a bearer token reads as: its client's acting user, and the resource types it opens. */
export interface TApiCaller {
  user: TCurrentUser;
  client: { id: string; name: string; scopes: string[] };
  /**
   * Always false: a token never reaches a restricted patient, whoever it reads as. Restricted
   * records are read by their care team or through break-glass, by a person; the token's holder
   * is software someone else may run (docs/decisions/restricted-records.md).
   */
  restrictedReach: false;
}

/** A new random token (or client secret) and the hash the database keeps of it. */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashToken(secret) };
}

/**
 * A bearer token's caller: the token unexpired, its client accepted and not revoked, and the
 * acting user still active (deactivating her deletes its tokens, as it ends her sessions). One
 * statement.
 */
export async function resolveApiToken(q: Queryable, token: string, now: Date): Promise<TApiCaller | null> {
  const at = now.toISOString();
  const [row] = await queryRows<{
    id: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
    role: TRole;
    clientId: string;
    clientName: string;
    scopes: string[];
  }>(
    q,
    sql`select u.id, u.email, u.first_name as "firstName", u.last_name as "lastName", u.role,
      c.id as "clientId", c.name as "clientName", t.scopes
    from api_tokens t join api_clients c on c.id = t.client_id join users u on u.id = c.acting_user_id
    where t.token_hash = ${hashToken(token)} and t.expires_at > ${at}::timestamptz and c.accepted_at is not null and c.revoked_at is null and u.is_active`,
  );
  if (!row) return null;
  return {
    user: { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, role: row.role },
    client: { id: row.clientId, name: row.clientName, scopes: row.scopes },
    restrictedReach: false,
  };
}
