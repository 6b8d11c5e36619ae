/**
 * Team chat throughput: how many messages per second one room takes with its 50 members each on
 * an open live socket, and how long each `new_message` takes to reach every member, measured
 * from the moment its POST was sent to each socket's receipt (one process, one clock).
 * - saturated: BENCH_CHAT_IN_FLIGHT (8) POSTs always in flight, from 5 of the members, for
 *   BENCH_CHAT_SECONDS (8): the rate the server accepts, and what that backlog costs in latency;
 * - steady: a fixed rate (BENCH_CHAT_RATE, else half the one-instance saturated rate, the same
 *   for both configurations so their latencies compare), sent on schedule whatever is in flight.
 * One instance holds all 50 sockets; two instances (PostgreSQL only, as in live-fanout.ts) hold
 * 25 each, with the POSTs alternating between them, so half of every fan-out crosses the outbox
 * and LISTEN/NOTIFY. The apps, the sockets and the senders share this process (and its event
 * loop), as live-fanout.ts does: the figures are for comparing, not a capacity plan.
 * Every member must get every message: `missing` counts those still absent after a grace period.
 */
import WebSocket from 'ws';
import { LIVE_PATH } from '#domain/live-events';
import { users } from '../server/db/schema/auth.ts';
import { patients } from '../server/db/schema/clinical.ts';
import { hashPassword } from '../server/modules/auth/passwords.ts';
import { openBenchClinic } from './bench-clinic.ts';

const MEMBERS = 50;
const SENDERS = 5;
const IN_FLIGHT = Number(process.env.BENCH_CHAT_IN_FLIGHT ?? 8);
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 8);
/** Not counted: the first messages pay for compiling and planning. */
const WARMUP_SECONDS = 1;
/** How long the last messages may take to reach everyone before they count as missing. */
const GRACE_MS = 10_000;
const PASSWORD = 'bench-chat-password';

const clinic = await openBenchClinic('chat');
const { database, instance } = clinic;
type Instance = Awaited<ReturnType<typeof instance>>;

async function call(base: string, cookie: string | null, url: string, body: unknown) {
  return fetch(`${base}${url}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `sid=${cookie}` } : {}) },
  });
}

/** The members: the first a scheduler (who creates the room, and so is in it), the rest nurses. */
async function createMembers(base: string) {
  const passwordHash = await hashPassword(PASSWORD); // slow by design: one hash serves all
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: MEMBERS }, (_, i) => ({
        email: `bench-chat-${i}@bench.clinic`,
        firstName: 'Bench',
        lastName: `Member ${i}`,
        role: i === 0 ? ('scheduler' as const) : ('nurse' as const),
        passwordHash,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const members: { userId: string; cookie: string }[] = [];
  for (const row of rows) {
    // one at a time: each sign-in verifies an argon2 hash
    const res = await call(base, null, '/api/auth/login', { email: row.email, password: PASSWORD });
    const cookie = /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
    members.push({ userId: row.id, cookie });
  }
  return members;
}

/** Receipt times of each message, by message id, over every socket. */
const arrivals = new Map<string, number[]>();

/** One member's socket, as the web app opens it: its cookie, its Origin, `auth`, then `ready`. */
function openSocket(base: string, member: { userId: string; cookie: string }) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${LIVE_PATH}`, { headers: { cookie: `sid=${member.cookie}`, origin: base } });
    ws.on('message', (raw) => {
      const at = performance.now();
      const message = JSON.parse(raw.toString()) as { type: string; messageId?: string };
      if (message.type === 'new_message') {
        const times = arrivals.get(message.messageId!) ?? [];
        times.push(at);
        arrivals.set(message.messageId!, times);
      } else if (message.type === 'ready') resolve(ws);
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', userId: member.userId })));
    ws.once('error', reject);
  });
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Sends through `via` (round robin), by `senders` (round robin), either with `inFlight` POSTs
 * always pending or at `rate` per second on schedule; then waits for every delivery and reports.
 */
async function phase(via: Instance[], roomId: string, senders: { cookie: string }[], mode: { inFlight: number } | { rate: number }, seconds: number) {
  const sent: { id: string; at: number }[] = [];
  const answers: number[] = [];
  let refused = 0;
  let n = 0;
  const post = async () => {
    const i = n++;
    const at = performance.now();
    const res = await call(via[i % via.length]!.base, senders[i % senders.length]!.cookie, `/api/chat/rooms/${roomId}/messages`, {
      content: `Bench message ${i}`,
    });
    answers.push(performance.now() - at);
    if (res.status === 201) sent.push({ id: ((await res.json()) as { id: string }).id, at });
    else {
      refused++;
      await res.body?.cancel();
    }
  };
  const start = performance.now();
  const until = start + seconds * 1000;
  if ('inFlight' in mode) {
    // Closed loop: each of `inFlight` workers sends its next message as soon as one is answered.
    await Promise.all(
      Array.from({ length: mode.inFlight }, async () => {
        while (performance.now() < until) await post();
      }),
    );
  } else {
    // Open loop: message i leaves at start + i/rate whether or not earlier ones were answered,
    // so a slow answer does not hide the latency of the messages that should have followed it.
    const pending: Promise<void>[] = [];
    for (let i = 0; i < Math.round(mode.rate * seconds); i++) {
      const wait = start + (i * 1000) / mode.rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(post());
    }
    await Promise.all(pending);
  }
  const postedMs = performance.now() - start;

  const complete = () => sent.every((m) => (arrivals.get(m.id)?.length ?? 0) >= MEMBERS);
  const graceEnd = performance.now() + GRACE_MS;
  while (!complete() && performance.now() < graceEnd) await new Promise((resolve) => setTimeout(resolve, 20));

  const latencies: number[] = [];
  let lastArrival = start;
  for (const m of sent) {
    for (const t of arrivals.get(m.id) ?? []) {
      latencies.push(t - m.at);
      lastArrival = Math.max(lastArrival, t);
    }
  }
  latencies.sort((x, y) => x - y);
  answers.sort((x, y) => x - y);
  const pct = (sorted: number[], p: number) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!) : null);
  const at = (p: number) => pct(latencies, p);
  return {
    messages: sent.length,
    refused,
    messagesPerSec: round(sent.length / (postedMs / 1000)),
    // Over the time until the last receipt: below messagesPerSec × 50 when the fan-out lags behind.
    deliveriesPerSec: Math.round(latencies.length / ((lastArrival - start) / 1000)),
    // From the last answered POST to the last receipt: the backlog the sockets still had.
    drainMs: Math.max(0, Math.round(lastArrival - start - postedMs)),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    maxMs: at(1),
    missing: sent.length * MEMBERS - latencies.length,
    // The POST's own answer time: tells a slow write (commit) from a slow fan-out.
    postP50Ms: pct(answers, 0.5),
    postP99Ms: pct(answers, 0.99),
  };
}

/** The members' sockets spread over `holders`, a warm-up, a saturated phase, then a steady one. */
async function measure(via: Instance[], holders: Instance[], roomId: string, members: { userId: string; cookie: string }[], steadyRate: () => number) {
  const sockets = await Promise.all(members.map((m, i) => openSocket(holders[Math.floor((i * holders.length) / MEMBERS)]!.base, m)));
  const senders = members.slice(0, SENDERS);
  await phase(via, roomId, senders, { inFlight: IN_FLIGHT }, WARMUP_SECONDS);
  const saturated = await phase(via, roomId, senders, { inFlight: IN_FLIGHT }, SECONDS);
  const rate = steadyRate() || Math.max(1, Math.round(saturated.messagesPerSec / 2));
  const steady = { rate, ...(await phase(via, roomId, senders, { rate }, SECONDS)) };
  for (const ws of sockets) ws.close();
  return { saturated, steady };
}

const a = await instance();
const members = await createMembers(a.base);
const [patient] = await database.db.select({ id: patients.id }).from(patients).limit(1);
const created = await call(a.base, members[0]!.cookie, '/api/chat/rooms', { patientId: patient!.id, name: 'Bench room' });
if (created.status !== 201) throw new Error(`room not created: ${created.status} ${await created.text()}`);
const { id: roomId } = (await created.json()) as { id: string };
for (const m of members.slice(1)) {
  const res = await call(a.base, members[0]!.cookie, `/api/chat/rooms/${roomId}/members`, { userId: m.userId });
  if (res.status !== 201) throw new Error(`member not added: ${res.status}`);
}

// The one-instance saturated rate sets the steady rate of both configurations, unless given.
let steadyRate = Number(process.env.BENCH_CHAT_RATE ?? 0);
const one = await measure([a], [a], roomId, members, () => steadyRate);
steadyRate ||= one.steady.rate;
const results: Record<string, unknown> = {
  engine: database.engine,
  members: MEMBERS,
  senders: SENDERS,
  inFlight: IN_FLIGHT,
  seconds: SECONDS,
  oneInstance: one,
};
if (clinic.canRunTwo) {
  const b = await instance();
  results.twoInstances = await measure([a, b], [a, b], roomId, members, () => steadyRate);
  await b.app.close();
  await b.events.close();
}
console.log(JSON.stringify(results, null, 2));

await a.app.close();
await a.events.close();
await clinic.close();
