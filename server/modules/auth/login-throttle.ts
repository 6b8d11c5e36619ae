import { and, eq, gte, inArray, lt, or, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { tooManyAttemptsMessage } from '#domain/errors';
import { loginThrottle, signInSources } from '../../db/schema/auth.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * Sign-in throttling that slows an attacker down without locking the real user out
 * (docs/security.md has the figures). Failures are counted by:
 * - (account, address): 5 failures lock that pair for 15 minutes. An attacker guessing one
 *   account from one address stops there; the account's owner elsewhere is not affected.
 * - address, across accounts: 100 failures lock the address for 15 minutes (one source
 *   spraying many accounts). High, because a clinic's staff often share one public address.
 * - account, across addresses, over 24 hours: no lock, but past 10 failures each further one
 *   makes the account wait longer (2 s, 4 s, 8 s... at most 15 minutes) before the next attempt
 *   from an unknown source. Many addresses guessing one account are slowed together.
 * A known source (an address the account has signed in from in the last 30 days) is held
 * only to its own pair: failures from elsewhere never slow the real user down.
 * From the third failure of a pair each answer is also delayed (250 ms, doubling, at most 2 s).
 * Counters live in the database so every app instance sees the same ones; old rows expire.
 */
export const THROTTLE = {
  /** The window of the pair and address counters. */
  windowMs: 15 * 60_000,
  /** The account counter's: long, so its waits keep growing instead of starting over. */
  accountWindowMs: 24 * 3_600_000,
  pairLimit: 5,
  pairLockMs: 15 * 60_000,
  addressLimit: 100,
  addressLockMs: 15 * 60_000,
  /** Account failures before unknown sources must wait. */
  accountFreeFailures: 10,
  accountMaxWaitMs: 15 * 60_000,
  knownSourceMs: 30 * 24 * 3_600_000,
  slowAfter: 2,
} as const;

export interface ThrottleKeys {
  pair: string;
  address: string;
  account: string;
}

export const throttleKeys = (email: string, ip: string): ThrottleKeys => ({ pair: `pair:${email}|${ip}`, address: `ip:${ip}`, account: `account:${email}` });

/** The wait before an unknown source may try an account again, after its nth failure. */
export function accountWaitMs(failures: number): number {
  const over = failures - THROTTLE.accountFreeFailures;
  return over <= 0 ? 0 : Math.min(THROTTLE.accountMaxWaitMs, 1000 * 2 ** over);
}

export async function isKnownSource(q: Queryable, email: string, ip: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - THROTTLE.knownSourceMs);
  const rows = await q
    .select({ email: signInSources.email })
    .from(signInSources)
    .where(and(eq(signInSources.email, email), eq(signInSources.address, ip), gte(signInSources.lastSuccessAt, since)))
    .limit(1);
  return rows.length > 0;
}

export async function rememberSource(q: Queryable, email: string, ip: string, now: Date): Promise<void> {
  await q
    .insert(signInSources)
    .values({ email, address: ip, lastSuccessAt: now })
    .onConflictDoUpdate({ target: [signInSources.email, signInSources.address], set: { lastSuccessAt: now } });
}

/** Seconds until the latest lock among the keys ends, or null when none is locked. */
export async function lockedFor(q: Queryable, keys: string[], now: Date): Promise<number | null> {
  const rows = await q.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle).where(inArray(loginThrottle.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : null;
}

export interface FailurePolicy {
  windowMs: number;
  /** How long the key is locked after its nth failure in the window (0: not at all). */
  lockMs: (failures: number) => number;
}

export const PAIR_POLICY: FailurePolicy = { windowMs: THROTTLE.windowMs, lockMs: (f) => (f >= THROTTLE.pairLimit ? THROTTLE.pairLockMs : 0) };
export const ADDRESS_POLICY: FailurePolicy = { windowMs: THROTTLE.windowMs, lockMs: (f) => (f >= THROTTLE.addressLimit ? THROTTLE.addressLockMs : 0) };
export const ACCOUNT_POLICY: FailurePolicy = { windowMs: THROTTLE.accountWindowMs, lockMs: accountWaitMs };

/** One more on a key's count in its window, in one statement; answers the count and the key's lock. */
async function bump(q: Queryable, key: string, now: Date, policy: FailurePolicy): Promise<{ failures: number; lockedUntil: Date | null }> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const stale = sql`${loginThrottle.windowStartedAt} < ${windowStart.toISOString()}::timestamptz`;
  const [row] = await q
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${loginThrottle.windowStartedAt} end`,
      },
    })
    .returning({ failures: loginThrottle.failures, lockedUntil: loginThrottle.lockedUntil });
  return { failures: row?.failures ?? 1, lockedUntil: row?.lockedUntil ?? null };
}

async function lockKey(q: Queryable, key: string, until: Date | null): Promise<void> {
  await q.update(loginThrottle).set({ lockedUntil: until }).where(eq(loginThrottle.key, key));
}

/** Counts one failure against a key, locking it as its policy says; returns the failures in the window. */
export async function recordFailure(q: Queryable, key: string, now: Date, policy: FailurePolicy): Promise<number> {
  const { failures } = await bump(q, key, now, policy);
  const lock = policy.lockMs(failures);
  if (lock > 0) await lockKey(q, key, new Date(now.getTime() + lock));
  return failures;
}

/** An attempt counted before its proof is checked: released if the proof passes. */
export interface TAttempt {
  key: string;
  /** The key's count with this attempt. */
  failures: number;
  /** This attempt reached the policy's limit and locked the key. */
  locked: boolean;
}

/**
 * Takes one attempt on a key before a password, code or key is checked: counted first, as a
 * failure, in one statement, so concurrent attempts each see the ones before them and no more
 * than the policy allows are ever checked (a lock read first, then a failure written after the
 * check, let a burst of 100 all through). Answers null, a refusal, when an earlier attempt had
 * already reached the limit; a proof that passes gives its attempt back with `releaseAttempt`.
 */
export async function takeAttempt(q: Queryable, key: string, now: Date, policy: FailurePolicy): Promise<TAttempt | { refusedFor: number }> {
  const { failures, lockedUntil } = await bump(q, key, now, policy);
  if (policy.lockMs(failures - 1) > 0) {
    const left = (lockedUntil?.getTime() ?? now.getTime() + policy.windowMs) - now.getTime();
    return { refusedFor: Math.max(1, Math.ceil(left / 1000)) };
  }
  const lock = policy.lockMs(failures);
  if (lock > 0) await lockKey(q, key, new Date(now.getTime() + lock));
  return { key, failures, locked: lock > 0 };
}

/** A taken attempt whose proof passed: it no longer counts, and a lock it set is lifted. */
export async function releaseAttempt(q: Queryable, attempt: TAttempt): Promise<void> {
  await q
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)`, ...(attempt.locked ? { lockedUntil: null } : {}) })
    .where(eq(loginThrottle.key, attempt.key));
}

export async function clearFailures(q: Queryable, key: string): Promise<void> {
  await q.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** Counters whose longest window and lock have both passed, and sources unused for 30 days. */
export async function deleteExpiredThrottleRows(q: Queryable, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE.accountWindowMs);
  await q
    .delete(loginThrottle)
    .where(and(lt(loginThrottle.windowStartedAt, windowStart), or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, now))));
  await q.delete(signInSources).where(lt(signInSources.lastSuccessAt, new Date(now.getTime() - THROTTLE.knownSourceMs)));
}

/** Delay before answering a failed attempt: nothing at first, then doubling up to 2 s. */
export function slowdownMs(failures: number): number {
  if (failures <= THROTTLE.slowAfter) return 0;
  return Math.min(2000, 250 * 2 ** (failures - THROTTLE.slowAfter - 1));
}

/**
 * The steps of a sign-in (the password, then the second factor) share these rules, so a code
 * guessed is throttled exactly as a password is.
 */

/** Seconds before this source may try this account again, or null: a known source answers only for its own pair. */
export async function signInLockedFor(q: Queryable, keys: ThrottleKeys, email: string, ip: string, now: Date): Promise<number | null> {
  const known = await isKnownSource(q, email, ip, now);
  return lockedFor(q, known ? [keys.pair] : [keys.pair, keys.address, keys.account], now);
}

/**
 * A sign-in step's attempt, taken on its pair (account, address) before the step is checked:
 * a refusal when the pair is spent.
 */
export async function takeSignInAttempt(q: Queryable, keys: ThrottleKeys, now: Date): Promise<TAttempt> {
  const attempt = await takeAttempt(q, keys.pair, now, PAIR_POLICY);
  if ('refusedFor' in attempt) throw throttledError(attempt.refusedFor);
  return attempt;
}

/** One failed step, counted by address and account (in the caller's transaction; its pair counted it when taken). */
export async function countSignInFailure(q: Queryable, keys: ThrottleKeys, now: Date): Promise<void> {
  await recordFailure(q, keys.address, now, ADDRESS_POLICY);
  await recordFailure(q, keys.account, now, ACCOUNT_POLICY);
}

/** A sign-in that got through: its pair starts over, and its address becomes a known source. */
export async function signInSucceeded(q: Queryable, keys: ThrottleKeys, email: string, ip: string, now: Date): Promise<void> {
  await clearFailures(q, keys.pair);
  await rememberSource(q, email, ip, now);
}

/** The refusal of a locked sign-in step, with when to try again. */
export const throttledError = (retryAfter: number) =>
  new HttpError('signIn.throttled', { message: tooManyAttemptsMessage(retryAfter), headers: { 'retry-after': String(retryAfter) } });
