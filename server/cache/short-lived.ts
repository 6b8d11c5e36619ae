/**
 * A few values kept for a few seconds and shared by every request: figures and pages that every
 * user sees alike and that cost the same to compute for each. A change this instance commits
 * clears them (the caller wires that to the events); a change on another instance is seen
 * within `ttlMs`. Concurrent requests for a missing value share one load; a failed load is
 * not kept.
 */
export interface ShortLived<K, V> {
  get(key: K, load: () => Promise<V>): Promise<V>;
  clear(): void;
}

export function shortLived<K, V>(opts: { ttlMs: number; now: () => number; maxKeys: number }): ShortLived<K, V> {
  const entries = new Map<K, { at: number; value: Promise<V> }>();
  return {
    get(key, load) {
      const now = opts.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < opts.ttlMs) return hit.value;
      const entry = { at: now, value: load() };
      entries.delete(key);
      if (entries.size >= opts.maxKeys) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.value;
    },
    clear() {
      entries.clear();
    },
  };
}
