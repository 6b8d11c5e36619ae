import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The app as an operator runs it: its own process (`node --import tsx server/index.ts`, what
 * `npm start` runs once built), on a data directory of the test's, spoken to over HTTP. For what
 * only a real process shows: backups while it writes, SIGTERM, a second process on one DATA_DIR.
 */
export const REPO = path.resolve(import.meta.dirname, '../..');

/**
 * Whether this is the embedded engine's run of the suite (no TEST_DATABASE_URL). The processes
 * here run on the embedded engine whatever the run's engine (they never get a DATABASE_URL), so
 * the files about it run in that run only, not a second time, identically, in PostgreSQL's.
 */
export const EMBEDDED_RUN = process.env.TEST_DATABASE_URL === undefined;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/** Starts a command of the repository (node with tsx) with the test's environment: its process, and its exit code and output once it ends. */
export function spawnScript(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += String(c)));
  child.stderr!.on('data', (c) => (output += String(c)));
  return { child, done: new Promise((resolve) => child.once('exit', (code) => resolve({ code, output }))) };
}

/** Runs a command of the repository to its end: its exit code and output. */
export const runScript = (args: string[], env: Record<string, string>) => spawnScript(args, env).done;

/** The server from its sources (`node --import tsx server/index.ts`), or another entry point: `['scripts/start.mjs']` is what `npm start` runs, `['npm', 'start']` npm itself. */
export async function startServer(
  env: Record<string, string>,
  entry = ['--import', 'tsx', 'server/index.ts'],
  /** Another account to run as (a root test process only): what a file's permissions stop, they stop for it. */
  as?: { uid: number; gid: number },
): Promise<ServerProcess> {
  const port = await freePort();
  // `['npm', 'start']` runs npm itself, as an operator's supervisor would; anything else is node's arguments.
  const [command, args] = entry[0] === 'npm' ? ['npm', entry.slice(1)] : [process.execPath, entry];
  const child = spawn(command, args, {
    cwd: REPO,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ?? {}),
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += String(c)));
  child.stderr!.on('data', (c) => (output += String(c)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  // Polled: the only way to know a process is listening is to ask it (no fixed sleep).
  for (let waited = 0; ; waited += 100) {
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) break;
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output}`);
    // npm start may build first (a fresh checkout): give it the time a build takes.
    if (waited > 180_000) throw new Error(`the server did not come up: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A signed-in client of a server process (cookie kept; Origin sent, as a browser would). */
export async function signIn(base: string, email: string, password = 'demo-clinic-2026') {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return (pathOrUrl: string, init: RequestInit = {}) =>
    fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${base}${pathOrUrl}`, { ...init, headers: { origin: base, cookie, ...(init.headers ?? {}) } });
}
