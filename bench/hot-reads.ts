/**
 * Hot read routes against a bare Fastify hello-world, side by side on this machine: each server in
 * its own process, autocannon (here) with 50 connections. The app runs with production settings
 * and info logging on the demo clinic plus 10,000 patients, on PGlite or on a fresh database on
 * the PostgreSQL server in BENCH_DATABASE_URL. Prints JSON figures; nothing here asserts a time.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { appDatabaseEnv, BARE_SERVER, cleanup, root, signIn, startServer } from './servers.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const EXTRA_PATIENTS = 10_000;
const ROUTES = ['/api/auth/user', '/api/dashboard/stats', '/api/patients?limit=50', '/api/patients?search=ann'];
const adminUrl = process.env.BENCH_DATABASE_URL;

async function load(url: string, cookie: string | undefined, duration: number) {
  const headers = cookie ? { cookie } : {};
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

/**
 * Warm-up run (discarded), then the measured one. `settle` answers only once the server has worked
 * off what the previous run left queued (requests outlive autocannon's closed sockets), so one
 * run's backlog is not charged to the next.
 */
async function measure(url: string, cookie: string | undefined, settle: () => Promise<void>) {
  await load(url, cookie, WARMUP_SECONDS);
  await settle();
  const result = await load(url, cookie, SECONDS);
  await settle();
  return result;
}

async function main() {
  const barePort = await startServer('bare', ['--input-type=module', '-e', BARE_SERVER], process.env, 15_000);
  const serverEnv = { ...process.env, BENCH_SERVER_PATIENTS: String(EXTRA_PATIENTS), ...(await appDatabaseEnv(adminUrl)) };
  // Seeding (migrations, password hashing, 10,000 rows) takes a while on PGlite.
  const appPort = await startServer('app', ['--import', 'tsx', path.join(root, 'bench/hot-reads-server.ts')], serverEnv, 300_000);

  const base = `http://127.0.0.1:${appPort}`;
  const cookie = await signIn(base);
  for (const route of ROUTES) {
    // A route that fails is still measured and its non-2xx count printed; this only says why.
    const res = await fetch(base + route, { headers: { cookie } });
    if (!res.ok) console.error(`warning: ${route} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }

  // The health check queries the database, so it waits behind any queued queries.
  const settle = async () => void (await (await fetch(`${base}/api/health`)).text());
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  const bareFirst = await measure(bareUrl, undefined, settle);
  const results = [];
  for (const route of ROUTES) results.push({ route, result: await measure(base + route, cookie, settle) });
  // Bare again at the end: the average of both brackets the app runs against machine drift.
  const bareLast = await measure(bareUrl, undefined, settle);
  const bareRps = (bareFirst.requests.average + bareLast.requests.average) / 2;

  const engine = adminUrl ? 'postgres' : 'pglite';
  console.log(
    JSON.stringify(
      {
        engine,
        connections: CONNECTIONS,
        seconds: SECONDS,
        bare: {
          rps: bareRps,
          p99Ms: (bareFirst.latency.p99 + bareLast.latency.p99) / 2,
          firstRps: bareFirst.requests.average,
          lastRps: bareLast.requests.average,
          non2xx: bareFirst.non2xx + bareLast.non2xx,
          errors: bareFirst.errors + bareLast.errors,
        },
        routes: results.map(({ route, result }) => ({
          route,
          rps: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          ratioToBare: Math.round((result.requests.average / bareRps) * 1000) / 1000,
        })),
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
