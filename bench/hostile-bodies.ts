/**
 * Hostile JSON bodies against the health check (security issue, finding 1): the app in its own
 * process on the demo clinic; /api/health probed one request at a time, first alone, then while
 * 30 connections post a plain bad body (`{}`, refused by the schema: the baseline of a busy
 * server), then while they post valid JSON nested 5,000 deep (10 KB), as a visitor could, to the
 * sign-in route. Prints JSON figures: the health check's latency in each phase, the ratio of the
 * hostile phase to the plain one, and how the bodies were answered. Nothing asserts a time.
 */
import path from 'node:path';
import { appDatabaseEnv, cleanup, root, startServer } from './servers.ts';

const HOSTILE_CONNECTIONS = 30;
const DEPTH = Number(process.env.BENCH_HOSTILE_DEPTH ?? 5_000);
const PHASE_MS = Number(process.env.BENCH_HOSTILE_SECONDS ?? 8) * 1000;
const body = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const round = (ms: number) => Math.round(ms * 10) / 10;
function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? NaN) };
}

/** Calls `once` back to back until the deadline, timing each; answers the times and statuses. */
async function loop(deadline: number, once: () => Promise<number>) {
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  while (Date.now() < deadline) {
    const start = performance.now();
    const status = await once().catch(() => 0);
    times.push(performance.now() - start);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { times, statuses };
}

async function main() {
  const env = { ...process.env, BENCH_SERVER_PATIENTS: '0', ...(await appDatabaseEnv(process.env.BENCH_DATABASE_URL)) };
  const port = await startServer('app', ['--import', 'tsx', path.join(root, 'bench/hot-reads-server.ts')], env, 300_000);
  const base = `http://127.0.0.1:${port}`;
  const health = async () => {
    const res = await fetch(`${base}/api/health`);
    await res.text();
    return res.status;
  };
  const post = (text: string) => async () => {
    const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    await res.text();
    return res.status;
  };
  /** The health check's latency while 30 connections post `text`, and how those were answered. */
  async function phase(text: string) {
    const deadline = Date.now() + PHASE_MS;
    const [probe, ...senders] = await Promise.all([loop(deadline, health), ...Array.from({ length: HOSTILE_CONNECTIONS }, () => loop(deadline, post(text)))]);
    const statuses: Record<number, number> = {};
    for (const a of senders) for (const [s, n] of Object.entries(a.statuses)) statuses[Number(s)] = (statuses[Number(s)] ?? 0) + n;
    return { health: summary(probe!.times), bodies: { ...summary(senders.flatMap((a) => a.times)), statuses } };
  }
  await loop(Date.now() + 1000, health);

  const healthAlone = summary((await loop(Date.now() + PHASE_MS, health)).times);
  const plain = await phase('{}');
  const hostile = await phase(body);
  console.log(
    JSON.stringify(
      {
        engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        depth: DEPTH,
        bodyBytes: body.length,
        connections: HOSTILE_CONNECTIONS,
        phaseSeconds: PHASE_MS / 1000,
        healthAlone,
        plain,
        hostile,
        healthP99HostileToPlain: Math.round((hostile.health.p99Ms / plain.health.p99Ms) * 100) / 100,
      },
      null,
      2,
    ),
  );
}

try {
  await main();
} finally {
  await cleanup();
}
