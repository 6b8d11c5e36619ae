import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { adminQuery, withDatabase } from '../../tests/helpers/global-setup.ts';
import type { TServerTemplate } from './global-setup.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_DIST = 'dist/web';
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

/** Where a test server keeps its data: what `openDatabase` takes (server/db/database.ts). */
export type TServerDatabase = { url: string } | { pgliteDir: string };

export interface TRestartOptions {
  /**
   * Runs while the server is down, with its database free to open (PGlite allows one process
   * at a time): a test writes rows no API creates. Close what it opens before it returns.
   */
  whileStopped?: (database: TServerDatabase) => Promise<void>;
}

export interface TRunningServer {
  baseUrl: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  /**
   * Stops the server process and starts a new one on the same port and database, as a deploy
   * or crash would: open sockets drop, sessions survive.
   */
  restart: (options?: TRestartOptions) => Promise<void>;
  stop: () => Promise<void>;
}

/** A port nothing listens on now: for the server, and for a listener a test turns on by its environment. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited before it was healthy (code ${child.exitCode}, signal ${child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The server was not healthy within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * A fresh PostgreSQL database for one server when the run targets PostgreSQL
 * (TEST_DATABASE_URL): the journeys whose server paths differ by engine run there too
 * (vitest.config.ts E2E_ON_POSTGRES).
 */
async function freshPostgres(template: TServerTemplate | undefined): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return null;
  const copy = template?.kind === 'postgres' ? template : null;
  const name = `${copy?.prefix ?? 'ehr_e2e'}_${randomBytes(5).toString('hex')}`;
  await adminQuery(admin, `create database ${name}${copy ? ` template ${copy.template}` : ''}`);
  return { url: withDatabase(admin, name), drop: () => adminQuery(admin, `drop database if exists ${name} with (force)`).then(() => {}) };
}

/**
 * Starts the real server (built SPA, a fresh database — embedded in a new directory, or on
 * PostgreSQL when TEST_DATABASE_URL is set — with the demo clinic) on a free port. Given the
 * run's `template` (helpers/global-setup.ts), the database starts as a copy of one already
 * migrated; without it the server migrates its own. It builds nothing: the test runner runs
 * `vite build` first (for a manual run: `npx vite build`).
 */
export async function startServer(extraEnv: Record<string, string> = {}, template?: TServerTemplate): Promise<TRunningServer> {
  if (!existsSync(path.join(REPO_ROOT, WEB_DIST, 'index.html'))) {
    throw new Error(`${WEB_DIST}/index.html is missing: build the web app first (npx vite build).`);
  }
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ehr-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: '1',
    NODE_ENV: 'production',
    WEB_DIST,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  // A developer's own database settings must not leak into a test run.
  delete env.DATABASE_URL;
  delete env.OIDC_ISSUER;
  const postgres = await freshPostgres(template);
  if (postgres) env.DATABASE_URL = postgres.url;
  // cp(1): Node's fs.cp took 2 s over the data directory's thousand files, cp 0.2 s.
  else if (template?.kind === 'pglite') await promisify(execFile)('cp', ['-R', template.dir, path.join(dataDir, 'pg')]);

  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  const output = () => log;
  const baseUrl = `http://127.0.0.1:${port}`;
  const database: TServerDatabase = postgres ? { url: postgres.url } : { pgliteDir: path.join(dataDir, 'pg') };

  const launch = () => {
    const started = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    return started;
  };
  let child = launch();

  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
  };

  const stop = async () => {
    await kill();
    await rm(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };

  const restart = async (options: TRestartOptions = {}) => {
    await kill();
    await options.whileStopped?.(database);
    child = launch();
    await waitForHealth(baseUrl, child, output);
  };

  try {
    await waitForHealth(baseUrl, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, output, restart, stop };
}
