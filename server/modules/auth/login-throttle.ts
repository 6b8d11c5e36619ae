import { inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { loginThrottle } from '../../db/schema/auth.ts';

/**
 * Failed sign-ins are counted per email and per address within a window. Past a few failures
 * each answer is delayed; at the limit the key is locked for a while and sign-in answers 429.
 * Counters live in the database so every app instance sees the same ones.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  emailLimit: 5,
  // Higher: one clinic's staff often share a single public address.
  addressLimit: 30,
  slowAfter: 2,
} as const;

export const throttleKeys = (email: string, ip: string) => ({ email: `email:${email}`, address: `ip:${ip}` });

/** Seconds until the latest lock among the keys ends, or null when none is locked. */
export async function lockedFor(q: Queryable, keys: string[], now: Date): Promise<number | null> {
  const rows = await q.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : null;
}

/** Counts one failure against a key; returns the failures in the current window. */
export async function recordFailure(q: Queryable, key: string, limit: number, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - THROTTLE.windowMs);
  const lockUntil = new Date(now.getTime() + THROTTLE.lockMs);
  const stale = sql`${loginThrottle.windowStartedAt} < ${windowStart.toISOString()}::timestamptz`;
  const [row] = await q.insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${loginThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when (case when ${stale} then 1 else ${loginThrottle.failures} + 1 end) >= ${limit}
          then ${lockUntil.toISOString()}::timestamptz else null end`,
      },
    })
    .returning({ failures: loginThrottle.failures });
  return row?.failures ?? 1;
}

export async function clearFailures(q: Queryable, key: string): Promise<void> {
  await q.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}

/** Delay before answering a failed attempt: nothing at first, then doubling up to 2 s. */
export function slowdownMs(failures: number): number {
  if (failures <= THROTTLE.slowAfter) return 0;
  return Math.min(2000, 250 * 2 ** (failures - THROTTLE.slowAfter - 1));
}
