/**
 * Live delivery latency: one notification event reaching 200 open sockets (one user's, as 200
 * tabs would be), from the moment the raising transaction starts to each socket's receipt.
 * - one instance: the event is raised on the instance that holds the sockets;
 * - two instances (PostgreSQL only): raised on A, sockets on B, carried by LISTEN/NOTIFY.
 * Both apps run in this process with their own database event bus, on PGlite or on a fresh
 * database on the server in BENCH_DATABASE_URL. Prints JSON figures; nothing asserts a time.
 */
import WebSocket from 'ws';
import { LIVE_PATH } from '#domain/live-events';
import { inTransaction } from '../server/db/transaction.ts';
import type { EventBus } from '../server/events/event-bus.ts';
import { notify } from '../server/modules/notifications/notifications.service.ts';
import { openBenchClinic } from './bench-clinic.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 200);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
/** Raised first and not counted: the first events pay for compiling and planning. */
const WARMUP_EVENTS = 5;

const clinic = await openBenchClinic('live');
// One session's 200 sockets is the load measured, far past the caps a clinic runs with (10 per
// session, 30 per user): raised here so the fan-out, not the cap, is what is timed.
clinic.config.live = { socketsPerSession: SOCKETS, socketsPerUser: SOCKETS };
const { database, instance } = clinic;

async function signIn(base: string): Promise<{ cookie: string; userId: string }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.clinic', password: 'demo-clinic-2026' }),
  });
  const cookie = /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return { cookie, userId: ((await res.json()) as { id: string }).id };
}

/** Opens the sockets; each reports the receipt time of every notification it gets. */
async function openSockets(base: string, cookie: string, onReceipt: (notificationId: string, at: number) => void) {
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${LIVE_PATH}`, { headers: { cookie: `sid=${cookie}`, origin: base } });
          ws.on('message', (raw) => {
            const message = JSON.parse(raw.toString()) as { type: string; notificationId?: string };
            if (message.type === 'notification' && message.notificationId) onReceipt(message.notificationId, performance.now());
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
  return () => {
    for (const ws of sockets) ws.close();
  };
}

/** Raises EVENTS notifications one after another on `via`, each awaited by every socket. */
async function measure(via: { events: EventBus }, holder: { base: string }, who: { cookie: string; userId: string }) {
  // Receipt times by notification; a receipt may arrive before its id is known here.
  const receipts = new Map<string, number[]>();
  let waiting: { id: string; done: () => void } | null = null;
  const close = await openSockets(holder.base, who.cookie, (id, at) => {
    const times = receipts.get(id) ?? [];
    times.push(at);
    receipts.set(id, times);
    if (waiting?.id === id && times.length === SOCKETS) waiting.done();
  });
  const latencies: number[] = [];
  for (let i = -WARMUP_EVENTS; i < EVENTS; i++) {
    const started = performance.now();
    const id = await inTransaction({ db: database.db, events: via.events }, (tx, raise) =>
      notify(tx, raise, { userId: who.userId, type: 'lab_received', title: `Bench ${i}` }),
    );
    await new Promise<void>((resolve, reject) => {
      if ((receipts.get(id)?.length ?? 0) === SOCKETS) return resolve();
      waiting = { id, done: resolve };
      setTimeout(() => reject(new Error(`event ${i} not delivered to every socket`)), 10_000).unref();
    });
    if (i >= 0) latencies.push(...receipts.get(id)!.map((at) => at - started));
  }
  close();
  latencies.sort((x, y) => x - y);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! * 10) / 10;
  return { sockets: SOCKETS, events: EVENTS, deliveries: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

const a = await instance();
const admin = await signIn(a.base);
const results: Record<string, unknown> = { engine: database.engine, oneInstance: await measure(a, a, admin) };
if (clinic.canRunTwo) {
  const b = await instance();
  results.twoInstances = await measure(a, b, admin);
  await b.app.close();
  await b.events.close();
}
console.log(JSON.stringify(results, null, 2));

await a.app.close();
await a.events.close();
await clinic.close();
