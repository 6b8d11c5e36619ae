import type { TCurrentUser } from '#domain/auth';

/**
 * Sessions this instance resolved recently, so a hot request makes no database round trip for
 * "who is calling". Every way a session ends reaches the cache:
 * - expiry: the idle and absolute deadlines are kept here and checked on every request;
 * - sign-out and sign-in rotation on this instance forget the session at once;
 * - a session ended or a user deactivated or re-roled anywhere raises a domain event
 *   (session.ended, user.accessChanged) that forgets the affected entries;
 * - anything that bypasses the app (a change made in SQL by hand, or on another instance
 *   before events travel between instances) is seen at the next re-read, at most
 *   `revalidateMs` later.
 * docs/security.md records the figures.
 */
/** Who a session belongs to, and what stands behind it: the user's second factor, and this session's. */
export interface SignedInSession {
  user: TCurrentUser;
  factor: {
    /** Whether the user has a confirmed second factor. */
    userHasOne: boolean;
    /** How this session's sign-in proved one, if it did (session-store.ts TSessionFactor). */
    thisSession: 'totp' | 'webauthn' | 'recovery' | 'provider' | null;
    /** The account's creation: the enrolment grace counts from it at the earliest. */
    userCreatedAt: Date;
  };
  /**
   * Whether a restricted patient may be hers to see: she is on a care team or holds a
   * break-glass grant (issue 33). Both changes forget her cached sessions at once.
   */
  restrictedReach: boolean;
}

export interface CachedSession extends SignedInSession {
  /** The idle deadline, slid forward in memory on each request. */
  expireMs: number;
  absoluteMs: number;
  /** The idle deadline as last written to the database. */
  storedExpireMs: number;
  /** The last request, in memory: the idle timeout in force now is measured from it (it may have been shortened). */
  seenMs: number;
  /** The last request as last written to the database (`sess.seenAt`). */
  storedSeenMs: number;
  /** When the database last confirmed the session and the user. */
  verifiedMs: number;
}

export interface SessionCache {
  get(sid: string, nowMs: number): CachedSession | null;
  set(sid: string, entry: CachedSession): void;
  forget(sid: string): void;
  forgetUser(userId: string): void;
}

export function createSessionCache(opts: { revalidateMs: number; maxEntries: number }): SessionCache {
  const entries = new Map<string, CachedSession>();
  return {
    get(sid, nowMs) {
      const entry = entries.get(sid);
      if (!entry) return null;
      if (nowMs - entry.verifiedMs >= opts.revalidateMs || nowMs >= entry.expireMs) {
        entries.delete(sid);
        return null;
      }
      return entry;
    },
    set(sid, entry) {
      if (opts.revalidateMs <= 0) return;
      entries.delete(sid);
      // Bounded memory: the oldest entry goes first (a Map iterates in insertion order).
      if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(sid, entry);
    },
    forget(sid) {
      entries.delete(sid);
    },
    forgetUser(userId) {
      for (const [sid, entry] of entries) if (entry.user.id === userId) entries.delete(sid);
    },
  };
}
