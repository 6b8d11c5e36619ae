/** The first retry waits about this long; each failure in a row doubles it, up to the cap. */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * How long to wait before reconnect attempt number `failures` (0 for the first after a drop):
 * 1 s doubling to 30 s, then spread by ±50% so that a restarted server is not met by every open
 * page in the same instant.
 */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures));
  return Math.round(base * (0.5 + random()));
}
