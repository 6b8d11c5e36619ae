import WebSocket from 'ws';
import { LIVE_PATH, ZServerMessage, type TServerMessage } from '#domain/live-events';

export interface LiveClient {
  ws: WebSocket;
  /** Every message received so far, parsed. */
  messages: TServerMessage[];
  send(message: unknown): void;
  /** The next message (already received or still to come) that matches, or a timeout error. */
  next(match?: (m: TServerMessage) => boolean, timeoutMs?: number): Promise<TServerMessage>;
  /** Resolves with the close code when the server (or the client) closes the socket. */
  closed: Promise<number>;
  close(): void;
}

/**
 * A live socket to a listening test app, as a browser would open it (its cookie, its Origin).
 * Rejects with the HTTP status when the upgrade is refused.
 */
export function openLive(baseUrl: string, opts: { cookie?: string | null; origin?: string } = {}): Promise<LiveClient> {
  const headers: Record<string, string> = { origin: opts.origin ?? baseUrl };
  if (opts.cookie) headers.cookie = `sid=${opts.cookie}`;
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`, { headers });
  const messages: TServerMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (raw) => {
    messages.push(ZServerMessage.parse(JSON.parse(raw.toString())));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  let taken = 0;
  const client: LiveClient = {
    ws,
    messages,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    close: () => ws.close(),
    async next(match = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = messages.findIndex((m, i) => i >= taken && match(m));
        if (index >= 0) {
          taken = index + 1;
          return messages[index]!;
        }
        if (Date.now() > deadline) throw new Error(`no matching live message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
}
