/**
 * GETs started before the code that reads them has arrived. A signed-in page asks for its first
 * screen's data while that screen's chunks are still loading, instead of after
 * (docs/decisions/front-end-delivery.md). `apiRequest` hands an early read to the first GET of
 * the same URL, once; so the queries that ask for it later (through their own src/api/ files)
 * are answered by it, and nothing is fetched twice.
 */

/**
 * An early read answers the page's first moments. One nobody took by then is dropped rather
 * than shown later as if it were fresh (the screen it was for was never reached).
 */
const MAX_AGE_MS = 10_000;

interface TEarlyRead {
  response: Promise<Response>;
  startedAt: number;
}

const reads = new Map<string, TEarlyRead>();

/** Starts GET `url` now, as `apiRequest` would send it; a second call for the same URL joins the first. */
export function startEarlyRead(url: string): Promise<Response> {
  const started = reads.get(url);
  if (started) return started.response;
  const response = fetch(url, { method: 'GET', credentials: 'include', headers: {} });
  // Whoever takes it sees a failure through its own await; an untaken one must not be reported.
  // Its body is read in full at once (a copy; the taker reads the original), so one nobody takes
  // does not hold a connection open with its answer half-read.
  response.then((answer) => answer.clone().arrayBuffer()).catch(() => undefined);
  reads.set(url, { response, startedAt: performance.now() });
  return response;
}

/**
 * The JSON of an early read, without using up its body (its taker reads the original). Null when
 * it failed or was refused: the taker, not this, reports that.
 */
export async function peekEarlyRead<T>(url: string): Promise<T | null> {
  try {
    const response = await startEarlyRead(url);
    return response.ok ? ((await response.clone().json()) as T) : null;
  } catch {
    return null;
  }
}

/** The early read of `url`, once, if one was started and is recent enough. */
export function takeEarlyRead(url: string): Promise<Response> | undefined {
  const read = reads.get(url);
  if (!read) return undefined;
  reads.delete(url);
  return performance.now() - read.startedAt <= MAX_AGE_MS ? read.response : undefined;
}

/** Drops every early read not taken yet: the page turned out to have no session. */
export function forgetEarlyReads(): void {
  reads.clear();
}
