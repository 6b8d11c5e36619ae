import { createHash, randomBytes } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { queryRows, type Queryable } from '../../db/database.ts';
import { sessions } from '../../db/schema/auth.ts';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Only a hash of the cookie's token is stored (see the sessions table). */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session and returns the token for the cookie. */
export async function createSession(q: Queryable, userId: string, now: Date, policy: SessionPolicy): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const absoluteExpiry = new Date(now.getTime() + policy.maxMs);
  await q.insert(sessions).values({
    sid: hashToken(token),
    sess: { userId, createdAt: now.toISOString(), absoluteExpiry: absoluteExpiry.toISOString() },
    expire: new Date(Math.min(now.getTime() + policy.idleMs, absoluteExpiry.getTime())),
  });
  return token;
}

/**
 * Resolves a cookie token to its user in one round trip: the session must be unexpired and the
 * user still active (so deactivating someone ends their sessions at once). The idle deadline
 * slides forward, written at most once a minute per session, never past the absolute lifetime.
 */
export async function resolveSession(q: Queryable, token: string, now: Date, policy: SessionPolicy): Promise<TCurrentUser | null> {
  const sid = hashToken(token);
  const nowIso = now.toISOString();
  const slidTo = new Date(now.getTime() + policy.idleMs).toISOString();
  const minStep = new Date(now.getTime() + policy.idleMs - 60_000).toISOString();
  const [row] = await queryRows<Record<string, unknown>>(q, sql`
    with s as (
      select s.sid, s.expire, (s.sess->>'absoluteExpiry')::timestamptz as absolute_expiry,
             u.id, u.email, u.first_name, u.last_name, u.role
      from sessions s join users u on u.id = (s.sess->>'userId')::uuid
      where s.sid = ${sid} and s.expire > ${nowIso}::timestamptz and u.is_active
    ), touched as (
      update sessions set expire = least(${slidTo}::timestamptz, s.absolute_expiry)
      from s where sessions.sid = s.sid and s.expire < least(${minStep}::timestamptz, s.absolute_expiry)
      returning 1
    )
    select id, email, first_name, last_name, role from s`);
  if (!row) return null;
  return {
    id: String(row.id),
    email: String(row.email),
    firstName: (row.first_name as string | null) ?? null,
    lastName: (row.last_name as string | null) ?? null,
    role: row.role as TCurrentUser['role'],
  };
}

export async function deleteSession(q: Queryable, token: string): Promise<void> {
  await q.delete(sessions).where(eq(sessions.sid, hashToken(token)));
}

export async function deleteExpiredSessions(q: Queryable, now: Date): Promise<void> {
  await q.delete(sessions).where(lt(sessions.expire, now));
}
