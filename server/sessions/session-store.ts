import { createHash, randomBytes } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { preparedRows, type Queryable } from '../db/database.ts';
import { sessions } from '../db/schema/auth.ts';
import type { Raise } from '../db/transaction.ts';
import type { CachedSession, SessionCache, SignedInSession } from './session-cache.ts';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Only a hash of the cookie's token is stored (see the sessions table); it is the session's id. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * How a session's sign-in proved a second factor: one of the user's own, or the identity
 * provider's (its token's `amr`); absent when it took a password (or the provider) alone.
 */
export type TSessionFactor = 'totp' | 'webauthn' | 'recovery' | 'provider';

/** Creates a session and returns the token for the cookie. */
export async function createSession(q: Queryable, userId: string, now: Date, policy: SessionPolicy, factor?: TSessionFactor): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const absoluteExpiry = new Date(now.getTime() + policy.maxMs);
  await q
    .insert(sessions)
    .values({
      sid: hashToken(token),
      sess: { userId, createdAt: now.toISOString(), absoluteExpiry: absoluteExpiry.toISOString(), seenAt: now.toISOString(), ...(factor ? { factor } : {}) },
      expire: new Date(Math.min(now.getTime() + policy.idleMs, absoluteExpiry.getTime())),
    });
  return token;
}

/**
 * Resolves a cookie token to its user: the session must be unexpired and the user still active
 * (so deactivating someone ends their sessions). A session this instance verified within the
 * cache's window costs no round trip (session-cache.ts says how every ending reaches it);
 * otherwise one read-only statement. The idle deadline slides forward in memory on every
 * request and is written only when it moved by more than a step, never past the absolute
 * lifetime. (A read-only statement is what keeps the miss cheap: the data-modifying CTE it
 * replaced cost a write path on every request.)
 *
 * `policy.idleMs` is the idle timeout in force now (the Settings tab may change it): a session
 * also ends once it has been idle that long since its last request (`seenAt`), even when its
 * stored deadline, slid under a longer timeout, is later (docs/security.md).
 */
export async function resolveSession(q: Queryable, cache: SessionCache, token: string, now: Date, policy: SessionPolicy): Promise<SignedInSession | null> {
  const sid = hashToken(token);
  const nowMs = now.getTime();
  const cached = cache.get(sid, nowMs);
  if (cached && nowMs - cached.seenMs < policy.idleMs) {
    await slideIdleDeadline(q, sid, cached, nowMs, policy);
    return cached;
  }
  if (cached) cache.forget(sid);
  const [row] = await preparedRows<Record<string, unknown>>(
    q,
    'resolve_session',
    sql`
    select s.expire, s.sess->>'absoluteExpiry' as absolute_expiry, s.sess->>'seenAt' as seen_at, s.sess->>'factor' as factor,
      u.id, u.email, u.first_name, u.last_name, u.role, u.created_at, u.second_factor_at is not null as has_factor,
      (exists (select 1 from patient_care_team ct where ct.user_id = u.id)
        or exists (select 1 from break_glass_grants bg where bg.user_id = u.id and bg.expires_at > ${now.toISOString()}::timestamptz)) as restricted_reach
    from sessions s join users u on u.id = (s.sess->>'userId')::uuid
    where s.sid = ${sid} and s.expire > ${now.toISOString()}::timestamptz and u.is_active
      and ${notIdleSince(now, policy.idleMs)}`,
  );
  if (!row) return null;
  const storedExpireMs = new Date(row.expire as string | Date).getTime();
  // A session from before `seenAt` was kept has only its stored deadline to go by.
  const storedSeenMs = row.seen_at ? new Date(String(row.seen_at)).getTime() : Number.NEGATIVE_INFINITY;
  const entry: CachedSession = {
    user: {
      id: String(row.id),
      email: String(row.email),
      firstName: (row.first_name as string | null) ?? null,
      lastName: (row.last_name as string | null) ?? null,
      role: row.role as TCurrentUser['role'],
    },
    restrictedReach: row.restricted_reach === true,
    factor: {
      userHasOne: row.has_factor === true,
      thisSession: (row.factor as TSessionFactor | null) ?? null,
      userCreatedAt: new Date(row.created_at as string | Date),
    },
    expireMs: storedExpireMs,
    absoluteMs: new Date(String(row.absolute_expiry)).getTime(),
    storedExpireMs,
    seenMs: nowMs,
    storedSeenMs,
    verifiedMs: nowMs,
  };
  await slideIdleDeadline(q, sid, entry, nowMs, policy);
  cache.set(sid, entry);
  return entry;
}

/** The session's last request, as stored, is within the idle time (a session with none stored passes). */
const notIdleSince = (now: Date, idleMs: number) =>
  sql`coalesce((s.sess->>'seenAt')::timestamptz > ${new Date(now.getTime() - idleMs).toISOString()}::timestamptz, true)`;

/**
 * The last request and the idle deadline are written when the stored last request is more than
 * a tenth of the idle time old, at most a minute: rare writes for the usual 30 minutes, and a
 * short idle time still slides (a fixed minute never moved a one-minute deadline at all). The
 * deadline written is the one the idle time in force gives, so it moves back when that was
 * shortened.
 */
const slideStepMs = (policy: SessionPolicy) => Math.min(60_000, policy.idleMs / 10);

async function slideIdleDeadline(q: Queryable, sid: string, entry: CachedSession, nowMs: number, policy: SessionPolicy): Promise<void> {
  const slideTo = Math.min(nowMs + policy.idleMs, entry.absoluteMs);
  entry.seenMs = nowMs;
  entry.expireMs = slideTo;
  if (entry.storedSeenMs >= nowMs - slideStepMs(policy) && entry.storedExpireMs <= slideTo) return;
  const seenAt = new Date(nowMs).toISOString();
  await q
    .update(sessions)
    .set({ expire: new Date(slideTo), sess: sql`jsonb_set(${sessions.sess}, '{seenAt}', to_jsonb(${seenAt}::text))` })
    .where(eq(sessions.sid, sid));
  entry.storedExpireMs = slideTo;
  entry.storedSeenMs = nowMs;
}

/**
 * A shorter idle timeout, saved: every session idle longer than it ends now (its deadline moves
 * to its last request plus the new time), so lengthening the timeout later cannot revive it.
 */
export async function endSessionsIdleLongerThan(q: Queryable, idleMs: number, now: Date): Promise<void> {
  const deadline = sql`(${sessions.sess}->>'seenAt')::timestamptz + ${idleMs}::float8 * interval '1 millisecond'`;
  await q
    .update(sessions)
    .set({ expire: sql`${deadline}` })
    .where(sql`${sessions.sess} ? 'seenAt' and ${sessions.expire} > ${deadline} and ${sessions.expire} > ${now.toISOString()}::timestamptz`);
}

/**
 * Ends a session: the row goes, this instance forgets it at once, and the event tells every
 * other cache once the transaction commits.
 */
export async function endSession(q: Queryable, raise: Raise, cache: SessionCache, token: string): Promise<void> {
  const sid = hashToken(token);
  await q.delete(sessions).where(eq(sessions.sid, sid));
  cache.forget(sid);
  raise({ type: 'session.ended', sessionId: sid });
}

/** Whether a session (by its stored id) is still unexpired under the idle time in force, and its user still active. */
export async function sessionIsLive(q: Queryable, sid: string, now: Date, idleMs: number): Promise<boolean> {
  const rows = await preparedRows<{ ok: number }>(
    q,
    'session_is_live',
    sql`
    select 1 as ok from sessions s join users u on u.id = (s.sess->>'userId')::uuid
    where s.sid = ${sid} and s.expire > ${now.toISOString()}::timestamptz and u.is_active
      and ${notIdleSince(now, idleMs)}`,
  );
  return rows.length > 0;
}

export async function deleteExpiredSessions(q: Queryable, now: Date): Promise<void> {
  await q.delete(sessions).where(lt(sessions.expire, now));
}

/** Ends every session of a user (her second factors were reset); `user.accessChanged` clears the caches. */
export async function endSessionsOfUser(q: Queryable, userId: string): Promise<void> {
  await q.delete(sessions).where(sql`(${sessions.sess}->>'userId')::uuid = ${userId}::uuid`);
}
