import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TServerMessage } from '#domain/live-events';
import { BACKOFF_MAX_MS, backoffDelay } from '../../web/src/live/backoff.ts';
import { createLiveConnection, liveUrl, STABLE_AFTER_MS, type TLiveSocket } from '../../web/src/live/live-connection.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const NOTIFICATION = '22222222-2222-4222-8222-222222222222';

/** A WebSocket stand-in the test opens, feeds and closes by hand. */
class FakeSocket implements TLiveSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function setup(checkSession: () => Promise<boolean> = async () => true) {
  const sockets: FakeSocket[] = [];
  const warnings: string[] = [];
  const reopened = vi.fn();
  const check = vi.fn(checkSession);
  const connection = createLiveConnection({
    userId: USER,
    url: 'ws://clinic.test/ws',
    checkSession: check,
    onReopen: reopened,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5, // no jitter: delays are exactly 1 s, 2 s, 4 s...
    now: () => Date.now(),
    warn: (message) => warnings.push(message),
  });
  const messages: TServerMessage[] = [];
  connection.subscribe((message) => messages.push(message));
  const latest = () => sockets[sockets.length - 1]!;
  return { connection, sockets, latest, warnings, reopened, check, messages };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('backoff', () => {
  it('starts near 1 s, doubles, stops at 30 s, and spreads each by ±50%', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffDelay(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 0.999999)).toBe(1500);
    expect(backoffDelay(50, () => 0.999999)).toBeLessThanOrEqual(BACKOFF_MAX_MS * 1.5);
  });
});

describe('live connection', () => {
  it('uses the page host, secure when the page is', () => {
    expect(liveUrl({ protocol: 'https:', host: 'ehr.example:8443' })).toBe('wss://ehr.example:8443/ws');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:5000' })).toBe('ws://localhost:5000/ws');
  });

  it('authenticates on open and is live until the socket closes', () => {
    const { connection, latest } = setup();
    connection.start();
    expect(connection.getStatus()).toBe('offline');
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', userId: USER }]);
    expect(connection.getStatus()).toBe('live');
    latest().drop(1006);
    expect(connection.getStatus()).toBe('offline');
  });

  it('reconnects with a growing delay and resumes from the last event it saw', async () => {
    const { connection, sockets, latest, reopened, messages } = setup();
    connection.start();
    latest().open();
    latest().receive({ type: 'notification', eventId: 7, notificationId: NOTIFICATION });
    latest().receive({ type: 'notification', eventId: 5, notificationId: NOTIFICATION });
    expect(messages).toHaveLength(2);
    latest().drop(1001); // server shutting down

    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    latest().drop(1006); // still down: never opened, so the session is re-checked, then 2 s
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);

    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', userId: USER, lastEventId: 7 }]);
    expect(reopened).toHaveBeenCalledTimes(1);
    expect(connection.getStatus()).toBe('live');
  });

  it('starts the backoff afresh after a connection that stayed up', async () => {
    const { connection, sockets, latest } = setup();
    connection.start();
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(2000);
    latest().open();
    await vi.advanceTimersByTimeAsync(STABLE_AFTER_MS);
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(4);
  });

  it('on 4001 re-checks the session: reconnects while signed in, stops when not', async () => {
    let signedIn = true;
    const { connection, sockets, latest, check } = setup(async () => signedIn);
    connection.start();
    latest().open();
    latest().drop(4001);
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(sockets).toHaveLength(2);

    latest().open();
    signedIn = false;
    latest().drop(4001);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check).toHaveBeenCalledTimes(2);
    expect(sockets).toHaveLength(2);
    expect(connection.getStatus()).toBe('offline');
  });

  it('a socket the browser refuses to create is logged and tried again, never thrown', async () => {
    let refuse = true;
    const warnings: string[] = [];
    const created: string[] = [];
    const connection = createLiveConnection({
      userId: USER,
      url: 'ws://clinic.test/ws',
      checkSession: async () => true,
      createSocket: (url) => {
        if (refuse) throw new DOMException('blocked', 'SecurityError');
        created.push(url);
        return new FakeSocket(url);
      },
      random: () => 0.5,
      warn: (message) => warnings.push(message),
    });
    expect(() => connection.start()).not.toThrow();
    expect(warnings).toEqual(['Live updates could not start: SecurityError']);
    refuse = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(created).toHaveLength(1);
    connection.stop();
  });

  it('a plain drop of an open socket reconnects without re-checking the session', async () => {
    const { connection, sockets, latest, check } = setup();
    connection.start();
    latest().open();
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
    expect(check).not.toHaveBeenCalled();
  });

  it('only logs a message it cannot read, and passes the others on', () => {
    const { connection, latest, warnings, messages } = setup();
    connection.start();
    latest().open();
    expect(() => latest().receive('not json {')).not.toThrow();
    expect(() => latest().receive({ type: 'notification', eventId: 'x' })).not.toThrow();
    latest().receive({ type: 'new_message', eventId: 3, roomId: NOTIFICATION, messageId: NOTIFICATION });
    expect(warnings).toHaveLength(2);
    expect(messages.map((m) => m.type)).toEqual(['new_message']);
    expect(connection.getStatus()).toBe('live');
  });

  it('handles each event once when a replay and a live push both bring it, and resumes from ready', async () => {
    const { connection, latest, messages } = setup();
    connection.start();
    latest().open();
    const note = { type: 'notification', notificationId: NOTIFICATION, title: 'Lab results' };
    latest().receive({ ...note, eventId: 7 });
    latest().receive({ ...note, eventId: 7 });
    latest().receive({ type: 'ready', eventId: 9 });
    expect(messages.filter((m) => m.type === 'notification')).toHaveLength(1);
    latest().drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    latest().open();
    expect(latest().sent[0]).toEqual({ type: 'auth', userId: USER, lastEventId: 9 });
  });

  it('stop() closes the socket and cancels a pending reconnect', async () => {
    const { connection, sockets, latest } = setup();
    connection.start();
    latest().open();
    latest().drop(1006);
    connection.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);

    connection.start();
    latest().open();
    connection.stop();
    expect(sockets[1]!.closedWith).toBe(1000);
    expect(connection.getStatus()).toBe('offline');
  });

  it('tells status listeners of every change', () => {
    const { connection, latest } = setup();
    const listener = vi.fn();
    const unsubscribe = connection.subscribeStatus(listener);
    connection.start();
    latest().open();
    latest().drop(1006);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    connection.stop();
  });
});
