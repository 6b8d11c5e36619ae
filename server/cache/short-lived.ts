/**
 * A few values kept for a few seconds and shared by every request: figures and pages that every
 * user sees alike and that cost the same to compute for each. A change this instance commits
 * clears them (the caller wires that to the events); a change on another instance is seen
 * within `ttlMs`. Concurrent requests for a missing value share one load; a failed load is
 * not kept.
 *
 * A load may be given up: each caller may pass the signal that says it no longer waits (its
 * client went away), and the load's own signal aborts once every caller waiting on it has gone,
 * so that a search nobody waits for stops, and one somebody still waits for runs on. A caller
 * without a signal always waits.
 */
export interface ShortLived<K, V> {
  get(key: K, load: (signal: AbortSignal) => Promise<V>, waiter?: AbortSignal): Promise<V>;
  clear(): void;
}

interface Entry<V> {
  at: number;
  value: Promise<V>;
  /** Counts a caller waiting on the load while it runs (not once it has settled). */
  join(waiter: AbortSignal | undefined): void;
}

export function shortLived<K, V>(opts: { ttlMs: number; now: () => number; maxKeys: number }): ShortLived<K, V> {
  const entries = new Map<K, Entry<V>>();
  const forget = (key: K, entry: Entry<V>) => {
    if (entries.get(key) === entry) entries.delete(key);
  };

  function start(key: K, now: number, load: (signal: AbortSignal) => Promise<V>): Entry<V> {
    const controller = new AbortController();
    let settled = false;
    let waiting = 0;
    const entry: Entry<V> = {
      at: now,
      value: Promise.resolve()
        .then(() => load(controller.signal))
        .finally(() => {
          settled = true;
        }),
      join(waiter) {
        if (settled) return;
        if (!waiter) {
          waiting = Number.POSITIVE_INFINITY;
          return;
        }
        const leave = () => {
          waiting -= 1;
          if (waiting > 0 || settled) return;
          // Forgotten at once, so a caller arriving now starts a load of its own instead of sharing an aborted one.
          forget(key, entry);
          controller.abort();
        };
        waiting += 1;
        if (waiter.aborted) leave();
        else waiter.addEventListener('abort', leave, { once: true });
      },
    };
    entry.value.catch(() => forget(key, entry));
    return entry;
  }

  return {
    get(key, load, waiter) {
      const now = opts.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < opts.ttlMs) {
        hit.join(waiter);
        return hit.value;
      }
      const entry = start(key, now, load);
      entries.delete(key);
      if (entries.size >= opts.maxKeys) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      entry.join(waiter);
      return entry.value;
    },
    clear() {
      entries.clear();
    },
  };
}
