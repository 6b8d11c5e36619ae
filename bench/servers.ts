/**
 * Servers for the benchmarks that load an app over HTTP: each in its own process (so the load
 * generator does not share its event loop), on a database of its own that is removed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

/** The control group: what Fastify alone does on this machine, with nothing registered. */
export const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stderr.write('READY ' + app.server.address().port + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

/**
 * Bare Fastify again, answering a page the size of the app's (BARE_PAGE_BYTES of JSON, encoded
 * once as the app's shared pages are): what moving those bytes alone costs on this machine, the
 * load generator's reading of them included.
 */
export const BARE_PAGE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
const page = JSON.stringify(['x'.repeat(Math.max(0, Number(process.env.BARE_PAGE_BYTES) - 6))]);
app.get('/', (_request, reply) => reply.type('application/json; charset=utf-8').send(page));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stderr.write('READY ' + app.server.address().port + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

/**
 * Spawns a server that writes `READY <port>` on stderr; other stderr lines pass through. Its
 * stdout (the app's log) goes to `logFile` when given, for the bench to read afterwards.
 */
export function startServer(name: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, logFile?: string): Promise<number> {
  // Else stdout is /dev/null: the app's info log is written for real but nobody reads it.
  const stdout = logFile ? fs.openSync(logFile, 'w') : 'ignore';
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') fs.closeSync(stdout);
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

/**
 * Where bench/hot-reads-server.ts keeps its data: a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL, else PGlite in a temporary directory; removed by cleanup().
 */
export async function appDatabaseEnv(adminUrl: string | undefined): Promise<NodeJS.ProcessEnv> {
  if (!adminUrl) {
    const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-'));
    cleanups.push(() => fs.rmSync(tempDir, { recursive: true, force: true }));
    return { BENCH_SERVER_PGLITE_DIR: path.join(tempDir, 'pg') };
  }
  const name = `ehr_bench_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  // force: a pool connection the killed server left behind must not keep the database alive.
  cleanups.push(() =>
    withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(
      () => undefined,
      (e: unknown) => console.error('drop database failed:', e),
    ),
  );
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return { BENCH_SERVER_DATABASE_URL: target.toString() };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

let cleaned = false;
/** Stops every server started here and removes their databases. */
export async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(children.map(stopChild));
  for (const step of cleanups) await step();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

/** Signs in as a demo user and answers the session cookie. */
export async function signIn(base: string, email = 'admin@demo.clinic'): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo-clinic-2026' }),
  });
  const sid = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('sid='));
  if (res.status !== 200 || !sid) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return sid;
}
