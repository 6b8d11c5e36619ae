/**
 * Hot read routes against a bare Fastify hello-world, side by side on this machine: each server in
 * its own process, autocannon (here) with 50 connections (BENCH_CONNECTIONS). The app runs with
 * production settings and info logging on the demo clinic plus 10,000 patients, on PGlite or on a
 * fresh database on the PostgreSQL server in BENCH_DATABASE_URL. Then, on PostgreSQL, the audited
 * first page served by two instances of the app on that database against one; and after all of
 * it, how long the audit rows waited for the sealer (written to sealed, from the database) and
 * the chain's check. Bare Fastify is measured a second way too: sending as many bytes as the
 * first page (`barePage`), since a 30 KB answer costs the kernel and the load generator what a
 * 17-byte one does not. Prints JSON figures; nothing here asserts a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { NAME_TRIGRAMS } from './hot-reads-names.ts';
import { appDatabaseEnv, BARE_PAGE_SERVER, BARE_SERVER, cleanup, root, signIn, startServer } from './servers.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const EXTRA_PATIENTS = 10_000;
/**
 * A search whose term changes from request to request: three letters drawn at random from every
 * name's (about 150 terms), so that the shared search pages (kept 5 s, 64 at most) are mostly
 * missed. `search=ann` asked over and over is their best case; this is closer to their worst.
 */
const VARIED_SEARCH = '/api/patients?search=<three letters of a name>';
const ROUTES = ['/api/auth/user', '/api/dashboard/stats', '/api/patients?limit=50', '/api/patients?search=ann', VARIED_SEARCH];
const adminUrl = process.env.BENCH_DATABASE_URL;

const AUDITED = '/api/patients?limit=50';

async function load(url: string, cookie: string | undefined, duration: number, connections = CONNECTIONS) {
  const headers = cookie ? { cookie } : {};
  if (!url.endsWith(VARIED_SEARCH)) return autocannon({ url, connections, duration, headers });
  const term = () => NAME_TRIGRAMS[Math.floor(Math.random() * NAME_TRIGRAMS.length)]!;
  return autocannon({
    url: url.slice(0, -VARIED_SEARCH.length),
    connections,
    duration,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: `/api/patients?search=${term()}` }) }],
  });
}

/** The same route on several instances at once, the connections shared out: total req/s, worst p99. */
async function loadSpread(bases: string[], route: string, cookie: string, duration: number) {
  const runs = await Promise.all(bases.map((base) => load(base + route, cookie, duration, Math.round(CONNECTIONS / bases.length))));
  return {
    rps: runs.reduce((sum, r) => sum + r.requests.average, 0),
    p99Ms: Math.max(...runs.map((r) => r.latency.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** The whole machine's CPU counters (Linux), to say how busy it was while a load ran. */
const cpuTicks = () => (fs.existsSync('/proc/stat') ? fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) : null);

/** `run`'s result, with the share of the machine's CPU in use meanwhile (null off Linux). */
async function withMachineBusy<T>(run: () => Promise<T>): Promise<T & { machineBusy: number | null }> {
  const before = cpuTicks();
  const result = await run();
  const after = cpuTicks();
  if (!before || !after) return { ...result, machineBusy: null };
  const spent = after.map((v, i) => v - before[i]!);
  const total = spent.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th counters.
  return { ...result, machineBusy: Math.round((1 - (spent[3]! + spent[4]!) / total) * 100) / 100 };
}

/** How long audit rows written since `since` waited for the sealer, and how many still wait. */
async function sealLag(databaseUrl: string, since: Date) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as rows, count(*) filter (where seq is null)::int as unsealed,
         round(percentile_cont(0.5) within group (order by extract(epoch from sealed_at - at) * 1000))::int as "p50Ms",
         round(percentile_cont(0.99) within group (order by extract(epoch from sealed_at - at) * 1000))::int as "p99Ms",
         round(max(extract(epoch from sealed_at - at) * 1000))::int as "maxMs"
       from audit_events where at >= $1`,
      [since],
    );
    const worst = await client.query(
      `select to_char(date_trunc('second', at), 'HH24:MI:SS') as second, count(*)::int as rows,
         round(max(extract(epoch from sealed_at - at) * 1000))::int as "maxMs"
       from audit_events where at >= $1 group by 1 order by 3 desc limit 5`,
      [since],
    );
    return { ...(rows[0] as { rows: number; unsealed: number; p50Ms: number; p99Ms: number; maxMs: number }), worstSeconds: worst.rows };
  } finally {
    await client.end();
  }
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
  const serverEnv: NodeJS.ProcessEnv = { ...process.env, BENCH_SERVER_PATIENTS: String(EXTRA_PATIENTS), ...(await appDatabaseEnv(adminUrl)) };
  // Seeding (migrations, password hashing, 10,000 rows) takes a while on PGlite.
  const appPort = await startServer('app', ['--import', 'tsx', path.join(root, 'bench/hot-reads-server.ts')], serverEnv, 300_000);

  const base = `http://127.0.0.1:${appPort}`;
  const cookie = await signIn(base);
  for (const route of ROUTES.filter((r) => r !== VARIED_SEARCH)) {
    // A route that fails is still measured and its non-2xx count printed; this only says why.
    const res = await fetch(base + route, { headers: { cookie } });
    if (!res.ok) console.error(`warning: ${route} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }

  // The health check queries the database, so it waits behind any queued queries.
  const settle = async () => void (await (await fetch(`${base}/api/health`)).text());
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  const runStart = new Date();
  const phases: Record<string, string> = {};
  const mark = (name: string) => (phases[name] = new Date().toISOString().slice(11, 19));
  const bareFirst = await measure(bareUrl, undefined, settle);
  const results = [];
  for (const route of ROUTES) {
    mark(route);
    results.push({ route, result: await measure(base + route, cookie, settle) });
  }
  mark('end of routes');
  // Bare again at the end: the average of both brackets the app runs against machine drift.
  const bareLast = await measure(bareUrl, undefined, settle);
  const bareRps = (bareFirst.requests.average + bareLast.requests.average) / 2;

  // The same bare server sending as many bytes as the first page: the ceiling for a page of that size here.
  const pageBytes = (await (await fetch(base + AUDITED, { headers: { cookie } })).arrayBuffer()).byteLength;
  const barePagePort = await startServer(
    'bare-page',
    ['--input-type=module', '-e', BARE_PAGE_SERVER],
    { ...process.env, BARE_PAGE_BYTES: String(pageBytes) },
    15_000,
  );
  const barePage = await measure(`http://127.0.0.1:${barePagePort}/`, undefined, settle);

  // Two instances on one database against one, for the audited list, in one run.
  let instances = null;
  if (adminUrl) {
    const secondPort = await startServer(
      'app-2',
      ['--import', 'tsx', path.join(root, 'bench/hot-reads-server.ts')],
      { ...serverEnv, BENCH_SERVER_SEED: '0' },
      120_000,
    );
    const second = `http://127.0.0.1:${secondPort}`;
    const settleBoth = async () => void (await Promise.all([settle(), fetch(`${second}/api/health`).then((r) => r.text())]));
    await loadSpread([base, second], AUDITED, cookie, WARMUP_SECONDS);
    await settleBoth();
    mark('one instance');
    const one = await withMachineBusy(() => loadSpread([base], AUDITED, cookie, SECONDS));
    await settleBoth();
    mark('two instances');
    const two = await withMachineBusy(() => loadSpread([base, second], AUDITED, cookie, SECONDS));
    await settleBoth();
    instances = { route: AUDITED, one, two, ratio: Math.round((two.rps / one.rps) * 100) / 100 };
  }

  // Every row of the run sealed, and the chain whole: the sealer keeps up and gets it right.
  const verifyUrl = `${base}/api/admin/audit/verify`;
  let check = (await (await fetch(verifyUrl, { headers: { cookie } })).json()) as { rows: number; firstBroken: unknown; unsealed: { rows: number } };
  for (let i = 0; i < 100 && check.unsealed.rows > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    check = (await (await fetch(verifyUrl, { headers: { cookie } })).json()) as typeof check;
  }
  const lag = serverEnv.BENCH_SERVER_DATABASE_URL ? await sealLag(serverEnv.BENCH_SERVER_DATABASE_URL, runStart) : null;

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
        barePage: { bytes: pageBytes, rps: barePage.requests.average, p99Ms: barePage.latency.p99, non2xx: barePage.non2xx },
        routes: results.map(({ route, result }) => ({
          route,
          rps: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          ratioToBare: Math.round((result.requests.average / bareRps) * 1000) / 1000,
          ratioToBarePage: Math.round((result.requests.average / barePage.requests.average) * 1000) / 1000,
        })),
        instances,
        sealLag: lag,
        phases,
        chain: { rows: check.rows, firstBroken: check.firstBroken, unsealed: check.unsealed },
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
