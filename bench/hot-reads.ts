/**
 * Hot read routes against a bare Fastify hello-world, side by side on this machine: each server in
 * its own process, autocannon (here) with 50 connections. The app runs with production settings
 * and info logging on the demo clinic plus 10,000 patients, on PGlite or on a fresh database on
 * the PostgreSQL server in BENCH_DATABASE_URL. Prints JSON figures; nothing here asserts a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const EXTRA_PATIENTS = 10_000;
const ROUTES = ['/api/auth/user', '/api/dashboard/stats', '/api/patients?limit=50', '/api/patients?search=ann'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adminUrl = process.env.BENCH_DATABASE_URL;
const children: ChildProcess[] = [];
let tempDir: string | undefined;
let benchDbName: string | undefined;

// The control group: what Fastify alone does on this machine, with nothing registered.
const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stderr.write('READY ' + app.server.address().port + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

/** Spawns a server that writes `READY <port>` on stderr; other stderr lines pass through. */
function startServer(name: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<number> {
  // stdout is /dev/null: the app's info log is written for real but nobody reads it.
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready after ${timeoutMs / 1000} s`)), timeoutMs);
    let buffer = '';
    // Read stderr to the end, or a chatty child would block on a full pipe.
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const ready = /^READY (\d+)$/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve(Number(ready[1]));
        } else {
          process.stderr.write(`[${name}] ${line}\n`);
        }
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited (${signal ?? code}) before it was ready`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A database of its own on the given server, so the run starts empty and leaves nothing behind. */
async function createBenchDatabase(url: string): Promise<string> {
  benchDbName = `ehr_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${benchDbName}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${benchDbName}`;
  return target.toString();
}

async function dropBenchDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // force: a pool connection the killed server left behind must not keep the database alive.
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(children.map(stopChild));
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  if (adminUrl && benchDbName) await dropBenchDatabase(adminUrl, benchDbName).catch((e: unknown) => console.error('drop database failed:', e));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

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

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.clinic', password: 'demo-clinic-2026' }),
  });
  const sid = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('sid='));
  if (res.status !== 200 || !sid) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return sid;
}

async function main() {
  const barePort = await startServer('bare', ['--input-type=module', '-e', BARE_SERVER], process.env, 15_000);
  const serverEnv: NodeJS.ProcessEnv = { ...process.env, BENCH_SERVER_PATIENTS: String(EXTRA_PATIENTS) };
  if (adminUrl) {
    serverEnv.BENCH_SERVER_DATABASE_URL = await createBenchDatabase(adminUrl);
  } else {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-hot-'));
    serverEnv.BENCH_SERVER_PGLITE_DIR = path.join(tempDir, 'pg');
  }
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
  console.log(JSON.stringify({
    engine, connections: CONNECTIONS, seconds: SECONDS,
    bare: {
      rps: bareRps, p99Ms: (bareFirst.latency.p99 + bareLast.latency.p99) / 2,
      firstRps: bareFirst.requests.average, lastRps: bareLast.requests.average,
      non2xx: bareFirst.non2xx + bareLast.non2xx, errors: bareFirst.errors + bareLast.errors,
    },
    routes: results.map(({ route, result }) => ({
      route, rps: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
      non2xx: result.non2xx, errors: result.errors, ratioToBare: Math.round((result.requests.average / bareRps) * 1000) / 1000,
    })),
  }, null, 2));
}

try {
  await main();
} finally {
  await cleanup();
}
