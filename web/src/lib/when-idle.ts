/**
 * Runs `callback` once the browser has nothing more urgent to do (within `timeoutMs` at the
 * latest); returns what cancels it. Safari has no requestIdleCallback: a timer stands in.
 */
export function whenIdle(callback: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(callback, 1);
  return () => clearTimeout(timer);
}
