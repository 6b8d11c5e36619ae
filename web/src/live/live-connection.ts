import { LIVE_CLOSE, LIVE_PATH, ZServerMessage, type TClientMessage, type TServerMessage } from '#domain/live-events';
import { backoffDelay } from './backoff.ts';

/** What the connection dot shows: 'live' only while the socket is open. */
export type TLiveStatus = 'live' | 'offline';

/** A connection that stayed open this long was healthy: the next drop starts the backoff afresh. */
export const STABLE_AFTER_MS = 10_000;

/** The part of the browser's WebSocket used here, so unit tests can hand in a fake. */
export interface TLiveSocket {
  /** 0 while connecting, as in the browser's WebSocket. */
  readonly readyState: number;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: (() => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface TLiveConnectionOptions {
  userId: string;
  /** ws:// or wss:// URL of the socket; `liveUrl()` for the page's own host. */
  url: string;
  /**
   * Re-reads the session; resolves false when this user is no longer signed in (the app's
   * logged-out handling then takes over and this connection stops), true otherwise.
   */
  checkSession: () => Promise<boolean>;
  /**
   * Each open after the first. The server replays only after an event id the page saw, and
   * only what it still keeps: the lists are read again to cover the rest of the gap.
   */
  onReopen?: () => void;
  createSocket?: (url: string) => TLiveSocket;
  random?: () => number;
  now?: () => number;
  warn?: (message: string) => void;
}

export interface TLiveConnection {
  start(): void;
  stop(): void;
  /** Skips the wait before the next attempt (the browser came back online). */
  retryNow(): void;
  getStatus(): TLiveStatus;
  subscribeStatus(listener: () => void): () => void;
  /** Every parsed server message; the chat screen listens here for `new_message`. */
  subscribe(listener: (message: TServerMessage) => void): () => void;
}

/** The socket URL on the page's own host: secure when the page is (spec section 4). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_PATH}`;
}

/**
 * One user's live socket: opened by `start()`, authenticated with the user's id, reopened after
 * every drop with a jittered, growing delay, and resumed from the last event id it saw so the
 * server sends what was missed. A close that says the session ended (4001) or a refusal (4003)
 * re-checks the session before trying again, so a signed-out page does not knock forever.
 */
export function createLiveConnection(options: TLiveConnectionOptions): TLiveConnection {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as TLiveSocket);
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message: string) => console.warn(message));

  const statusListeners = new Set<() => void>();
  const messageListeners = new Set<(message: TServerMessage) => void>();
  let status: TLiveStatus = 'offline';
  let socket: TLiveSocket | null = null;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pendingAttempt: (() => void) | null = null;
  /** Failed or short-lived attempts in a row, for the backoff. */
  let failures = 0;
  let lastEventId: number | undefined;
  const seenEventIds = new Set<number>();
  let hasOpened = false;
  /** Bumped by stop(), so a session check that finishes later cannot revive a stopped connection. */
  let generation = 0;

  const setStatus = (next: TLiveStatus) => {
    if (status === next) return;
    status = next;
    for (const listener of statusListeners) listener();
  };

  const send = (ws: TLiveSocket, message: TClientMessage) => ws.send(JSON.stringify(message));

  function connect() {
    let ws: TLiveSocket;
    try {
      ws = createSocket(options.url);
    } catch (error) {
      // A URL or policy the browser refuses outright: logged, and tried again later.
      warn(`Live updates could not start: ${error instanceof Error ? error.name : 'unknown error'}`);
      failures += 1;
      schedule(backoffDelay(failures - 1, random), false);
      return;
    }
    socket = ws;
    let openedAt: number | null = null;

    ws.onopen = () => {
      openedAt = now();
      send(ws, lastEventId === undefined ? { type: 'auth', userId: options.userId } : { type: 'auth', userId: options.userId, lastEventId });
      setStatus('live');
      if (hasOpened) options.onReopen?.();
      hasOpened = true;
    };
    ws.onmessage = (event) => receive(event.data);
    // A failed socket is always followed by its close event, which does the work.
    ws.onerror = () => {};
    ws.onclose = (event) => {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      if (socket !== ws) return;
      socket = null;
      setStatus('offline');
      if (!running) return;
      failures = (openedAt !== null && now() - openedAt >= STABLE_AFTER_MS ? 0 : failures) + 1;
      // The browser hides why an upgrade was refused (no session gives the same 1006 as a server
      // that is down), so an attempt that never opened re-checks the session too.
      const recheck = event.code === LIVE_CLOSE.sessionEnded || event.code === LIVE_CLOSE.refused || openedAt === null;
      schedule(backoffDelay(failures - 1, random), recheck);
    };
  }

  function schedule(delayMs: number, recheck: boolean) {
    const mine = generation;
    const attempt = () => {
      timer = null;
      pendingAttempt = null;
      if (!recheck) return connect();
      options.checkSession().then(
        (stillSignedIn) => {
          if (mine !== generation || !running) return;
          if (stillSignedIn) connect();
          else running = false;
        },
        // Could not tell (network down): keep trying at the backoff's pace.
        () => {
          if (mine !== generation || !running) return;
          failures += 1;
          schedule(backoffDelay(failures - 1, random), true);
        },
      );
    };
    pendingAttempt = attempt;
    timer = setTimeout(attempt, delayMs);
  }

  function receive(data: unknown) {
    let parsed: ReturnType<typeof ZServerMessage.safeParse>;
    try {
      parsed = ZServerMessage.safeParse(typeof data === 'string' ? JSON.parse(data) : undefined);
    } catch {
      warn('Live update ignored: not JSON');
      return;
    }
    // Only the reason is logged: a message may carry a notification's text.
    if (!parsed.success) {
      warn(`Live update ignored: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
      return;
    }
    const message = parsed.data;
    if (message.type === 'error') warn(`Live update refused by the server: ${message.code}`);
    if (message.type === 'notification' || message.type === 'new_message') {
      // A replay and a live push can race after a reconnect: each event is handled once.
      if (seenEventIds.has(message.eventId)) return;
      seenEventIds.add(message.eventId);
      if (seenEventIds.size > 1000) seenEventIds.delete(seenEventIds.values().next().value!);
    }
    // 'ready' comes after any replay, so the id it names is safe to resume from.
    if (message.type === 'notification' || message.type === 'new_message' || message.type === 'ready') {
      lastEventId = Math.max(lastEventId ?? 0, message.eventId);
    }
    for (const listener of messageListeners) listener(message);
  }

  return {
    start() {
      if (running) return;
      running = true;
      failures = 0;
      connect();
    },
    stop() {
      running = false;
      generation += 1;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pendingAttempt = null;
      const ws = socket;
      socket = null;
      if (ws) {
        ws.onmessage = ws.onclose = ws.onerror = null;
        // Closing a socket that is still connecting makes the browser log an error; it is
        // closed as soon as it opens instead.
        if (ws.readyState === 0) ws.onopen = () => ws.close(1000, 'Page left');
        else {
          ws.onopen = null;
          ws.close(1000, 'Page left');
        }
      }
      setStatus('offline');
    },
    retryNow() {
      if (!running || timer === null || !pendingAttempt) return;
      clearTimeout(timer);
      pendingAttempt();
    },
    getStatus: () => status,
    subscribeStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    subscribe(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
  };
}
