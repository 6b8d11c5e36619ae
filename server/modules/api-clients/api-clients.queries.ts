import { sql } from 'drizzle-orm';
import type { TApiClient, TApiClientAuthMethod } from '#domain/api-clients';
import type { TRole } from '#domain/roles';
import { queryRows, type Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { fullName } from '../../db/user-name.ts';

const CLIENT_SELECT = sql`select c.id, c.name, c.scopes, c.auth_method as "authMethod", c.jwks_url as "jwksUrl",
  array(select coalesce(k->>'kid', k->>'kty') from jsonb_array_elements(coalesce(c.jwks->'keys', '[]'::jsonb)) k) as "keyIds", coalesce(${fullName('m')}, m.email) as "createdByName",
  ${isoText(sql`c.created_at`)} as "createdAt", ${isoText(sql`c.accepted_at`)} as "acceptedAt", ${isoText(sql`c.revoked_at`)} as "revokedAt",
  ${isoText(sql`c.last_used_at`)} as "lastUsedAt", u.id as "userId", coalesce(${fullName('u')}, u.email) as "userName", u.role, u.is_active as "isActive"
  from api_clients c join users u on u.id = c.acting_user_id left join users m on m.id = c.created_by`;

type TRow = Omit<TApiClient, 'actingUser'> & { userId: string; userName: string; role: TRole; isActive: boolean };
const toClient = ({ userId, userName, role, isActive, ...c }: TRow): TApiClient => ({ ...c, actingUser: { id: userId, name: userName, role, isActive } });

/** Every client, newest first (a clinic has a handful). */
export async function listApiClients(q: Queryable): Promise<TApiClient[]> {
  return (await queryRows<TRow>(q, sql`${CLIENT_SELECT} order by c.created_at desc, c.id`)).map(toClient);
}

/** The clients reading as one account (her Security page), newest first. */
export async function listClientsActingAs(q: Queryable, userId: string): Promise<TApiClient[]> {
  return (await queryRows<TRow>(q, sql`${CLIENT_SELECT} where c.acting_user_id = ${userId}::uuid order by c.created_at desc, c.id`)).map(toClient);
}

export async function findApiClient(q: Queryable, id: string): Promise<TApiClient | null> {
  const [row] = await queryRows<TRow>(q, sql`${CLIENT_SELECT} where c.id = ${id}::uuid`);
  return row ? toClient(row) : null;
}

/**
 * A client that may be issued a token, with the account it reads as and what it proves itself
 * with: that account accepted it and is active, and it is not revoked.
 */
export async function findIssuableClient(q: Queryable, id: string) {
  const [row] = await queryRows<{
    id: string;
    scopes: string[];
    authMethod: TApiClientAuthMethod;
    secretHash: string | null;
    jwks: { keys: Record<string, unknown>[] } | null;
    jwksUrl: string | null;
    userId: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
    role: TRole;
  }>(
    q,
    sql`select c.id, c.scopes, c.auth_method as "authMethod", c.secret_hash as "secretHash", c.jwks, c.jwks_url as "jwksUrl",
        u.id as "userId", u.email, u.first_name as "firstName", u.last_name as "lastName", u.role
      from api_clients c join users u on u.id = c.acting_user_id
      where c.id = ${id}::uuid and c.accepted_at is not null and c.revoked_at is null and u.is_active`,
  );
  if (!row) return null;
  const { userId, email, firstName, lastName, role, ...client } = row;
  return { ...client, actingUser: { id: userId, email, firstName, lastName, role } };
}
