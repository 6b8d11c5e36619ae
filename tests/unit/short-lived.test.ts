import { describe, expect, it } from 'vitest';
import { shortLived } from '../../server/cache/short-lived.ts';

/** A load that waits until it is released or aborted, and says which. */
function heldLoad() {
  const calls: { signal: AbortSignal; release: (value: string) => void }[] = [];
  const load = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ signal, release: resolve });
      if (signal.aborted) reject(new Error('aborted'));
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  return { load, calls };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('shortLived', () => {
  let clock = 0;
  const cache = () => shortLived<string, string>({ ttlMs: 1000, now: () => clock, maxKeys: 2 });

  it('shares one load among callers at the same moment and keeps its value for the time given', async () => {
    const c = cache();
    const { load, calls } = heldLoad();
    const a = c.get('k', load);
    const b = c.get('k', load);
    await settle();
    expect(calls).toHaveLength(1);
    calls[0]!.release('v');
    expect([await a, await b]).toEqual(['v', 'v']);
    clock += 999;
    expect(await c.get('k', load)).toBe('v');
    clock += 1;
    void c.get('k', load);
    await settle();
    expect(calls).toHaveLength(2);
  });

  it('aborts a load only once every caller waiting for it has gone', async () => {
    const c = cache();
    const { load, calls } = heldLoad();
    const first = new AbortController();
    const second = new AbortController();
    const a = c.get('k', load, first.signal).catch((e: Error) => e.message);
    const b = c.get('k', load, second.signal).catch((e: Error) => e.message);
    await settle();
    first.abort();
    expect(calls[0]!.signal.aborted).toBe(false);
    second.abort();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect([await a, await b]).toEqual(['aborted', 'aborted']);

    // The aborted load is forgotten at once: the next caller runs its own.
    const c2 = c.get('k', load);
    await settle();
    expect(calls).toHaveLength(2);
    calls[1]!.release('fresh');
    expect(await c2).toBe('fresh');
  });

  it('never aborts a load that a caller without a signal waits for', async () => {
    const c = cache();
    const { load, calls } = heldLoad();
    const gone = new AbortController();
    const a = c.get('k', load, gone.signal);
    const b = c.get('k', load);
    await settle();
    gone.abort();
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.release('v');
    expect([await a, await b]).toEqual(['v', 'v']);
  });

  it('aborts at once a load asked for by a caller already gone, and a caller gone after it settled changes nothing', async () => {
    const c = cache();
    const { load, calls } = heldLoad();
    const gone = new AbortController();
    gone.abort();
    await expect(c.get('k', load, gone.signal)).rejects.toThrow('aborted');
    expect(calls[0]!.signal.aborted).toBe(true);

    const late = new AbortController();
    const kept = c.get('j', load, late.signal);
    await settle();
    calls[1]!.release('v');
    expect(await kept).toBe('v');
    late.abort();
    expect(await c.get('j', load)).toBe('v');
    expect(calls).toHaveLength(2);
  });

  it('does not keep a failed load, and holds at most maxKeys values', async () => {
    const c = cache();
    let n = 0;
    await expect(c.get('x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await c.get('x', async () => `ok ${++n}`)).toBe('ok 1');
    await c.get('y', async () => 'y');
    await c.get('z', async () => 'z');
    // 'x' was the oldest of three: it is loaded again.
    expect(await c.get('x', async () => `ok ${++n}`)).toBe('ok 2');
  });
});
