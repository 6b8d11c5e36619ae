import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { WebSocketServer } from 'ws';
import { LIVE_PATH } from '#domain/live-events';
import type { Deps } from '../deps.ts';
import { loggableError } from '../http/loggable-error.ts';
import { createHub } from '../live/hub.ts';
import { hashToken, resolveSession, sessionIsLive } from '../sessions/session-store.ts';
import { heldToEnrol } from '../sessions/session-enrolment.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { isOwnOrigin } from './security.ts';

/** How often sockets are pinged, and their sessions checked again. */
export const LIVE_SWEEP_MS = 30_000;

/**
 * The live socket at /ws, on the app's own host and port. The upgrade is refused without a
 * valid session cookie (401) or from a foreign Origin (403); once open, the socket belongs to
 * that session and its user, and closes when the session ends, expires or the user's access
 * changes, on whichever instance that happens (the events reach every instance).
 */
export const livePlugin = fp(async (app: FastifyInstance, opts: { deps: Deps }) => {
  const { deps } = opts;
  const hub = createHub(deps.db, app.log, deps.config.live, deps.config.now);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  /** What Fastify would call the request's protocol and host; an upgrade never reaches Fastify. */
  const madeTo = (request: IncomingMessage) => {
    const forwarded = deps.config.trustProxy
      ? String(request.headers['x-forwarded-proto'] ?? '')
          .split(',')[0]
          ?.trim()
      : '';
    const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
    return { protocol: forwarded === 'https' || encrypted ? 'https' : 'http', host: request.headers.host ?? '' };
  };

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== LIVE_PATH) return reject(socket, 404, 'Not Found');
    const origin = request.headers.origin;
    if (!origin || !isOwnOrigin(deps.config, origin, madeTo(request))) return reject(socket, 403, 'Forbidden');
    const token = app.parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
    await deps.settings.refreshIfDue();
    const policy = { idleMs: deps.settings.current().sessionIdleMs, maxMs: deps.config.sessionMaxMs };
    const session = token ? await resolveSession(deps.db, deps.sessions, token, deps.config.now(), policy) : null;
    if (!token || !session) return reject(socket, 401, 'Unauthorized');
    // Someone who must enrol a second factor first gets no live events either, and the socket
    // closes when a hold begins later (a policy change, the grace running out).
    const held = () => heldToEnrol(deps.settings.current().secondFactorPolicy, session, deps.config.now());
    if (held()) return reject(socket, 403, 'Forbidden');
    wss.handleUpgrade(request, socket, head, (ws) => hub.add(ws, session.user, hashToken(token), held));
  }

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(request, socket, head).catch((error: unknown) => {
      app.log.error({ err: loggableError(error) }, 'live upgrade failed');
      reject(socket, 500, 'Internal Server Error');
    });
  });

  const unsubscribe = deps.events.subscribe(async (live) => {
    if (live.event.type === 'settings.changed') {
      // A policy now requiring a second factor holds some users at once: their sockets close.
      await deps.settings.refresh();
      hub.closeHeld();
    }
    return hub.onEvent(live);
  });
  const runSweep = () => hub.sweep((conn) => sessionIsLive(deps.db, conn.sessionId, deps.config.now(), deps.settings.current().sessionIdleMs));
  const sweep = setInterval(() => {
    runSweep().catch((error: unknown) => app.log.error({ err: loggableError(error) }, 'live sweep failed'));
  }, LIVE_SWEEP_MS);
  sweep.unref();

  app.decorate('live', { hub, sweep: runSweep });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    unsubscribe();
    hub.closeAll();
    wss.close();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's live sockets, and their ping-and-check round (tests and the benchmark use them). */
    live: { hub: ReturnType<typeof createHub>; sweep: () => Promise<void> };
  }
}

function reject(socket: Duplex, status: number, text: string) {
  if (!socket.writable) return socket.destroy();
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
