import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_RUN, signIn, startServer, type ServerProcess } from './server-process.ts';

// Issue 36, the app's life as a process on the embedded engine: a second process on its DATA_DIR
// is refused; SIGTERM with writes in flight lets them commit and exits 0 under `npm start`.
// (Shedding an overload, and keeping what was acknowledged, is tests/api/load-shedding.test.ts.)

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-life-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  fs.rmSync(root, { recursive: true, force: true });
});

type Client = Awaited<ReturnType<typeof signIn>>;
type Outcome = { status: number; id?: string; code?: string } | { error: string };

/** Creates one patient; what came back (or that nothing did). */
async function createPatient(client: Client): Promise<Outcome> {
  const word = randomBytes(6).toString('hex');
  try {
    const res = await client('/api/patients', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: `Load${word}`, lastName: `Proc${word}`, dateOfBirth: '1971-03-04', phone: '555-0100' }),
    });
    const body = (await res.json()) as { id?: string; code?: string };
    return { status: res.status, id: body.id, code: body.code };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const acknowledged = (outcomes: Outcome[]) => outcomes.flatMap((o) => ('status' in o && o.status === 201 && o.id ? [o.id] : []));

async function everyOnePresent(client: Client, ids: string[]) {
  const statuses = await Promise.all(ids.map(async (id) => (await client(`/api/patients/${id}`)).status));
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
}

describe.runIf(EMBEDDED_RUN)('the app as a process on the embedded engine', () => {
  const dataDir = path.join(root, 'data');

  it('refuses a second process on the same DATA_DIR, and on SIGTERM under npm start lets writes in flight commit and exits 0', async () => {
    // Load shedding off: on a busy machine it may rightly refuse a write, which is not what this checks.
    const app = await startServer({ DATA_DIR: dataDir, NODE_ENV: 'production', RATE_LIMIT_USER_PER_MINUTE: '0', LOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }, [
      'scripts/start.mjs',
    ]);
    servers.push(app);
    const second = await startServer({ DATA_DIR: dataDir }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(second).toMatch(/The embedded database is in use by process \d+/);

    const admin = await signIn(app.base, 'admin@demo.clinic');
    const outcomes: Outcome[] = [];
    let stop = false;
    let fortyAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (fortyAnswered = resolve));
    const writers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const outcome = await createPatient(admin);
        outcomes.push(outcome);
        if (acknowledged(outcomes).length >= 40) fortyAnswered();
        if ('error' in outcome) return;
      }
    });
    // SIGTERM lands among writes: some answered, some on their way.
    await answered;
    app.child.kill('SIGTERM');
    const code = await app.exited;
    stop = true;
    await Promise.all(writers);
    expect(code, app.output()).toBe(0);
    // Every request either got its answer (no 5xx) or could not reach a server that had stopped listening.
    expect(outcomes.filter((o) => 'status' in o && o.status >= 500)).toEqual([]);

    const again = await startServer({ DATA_DIR: dataDir });
    servers.push(again);
    await everyOnePresent(await signIn(again.base, 'admin@demo.clinic'), acknowledged(outcomes));
    expect(await again.stop()).toBe(0);
  });
});

describe.runIf(EMBEDDED_RUN)('DATA_DIR is closed to the machine’s other users (issue 47)', () => {
  /** Every path under the directory whose mode lets a group or other user in at all. */
  function openToOthers(dir: string): string[] {
    const open: string[] = [];
    const walk = (target: string) => {
      const stat = fs.lstatSync(target);
      if (stat.mode & 0o077) open.push(`${path.relative(dir, target) || '.'} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of fs.readdirSync(target)) walk(path.join(target, name));
    };
    walk(dir);
    return open;
  }

  it('a new one is created 0700 with every file 0600; one an earlier release left open is tightened at start', async () => {
    const fresh = path.join(root, 'fresh');
    const app = await startServer({ DATA_DIR: fresh });
    servers.push(app);
    // An attachment too, so its directory and key are there.
    const admin = await signIn(app.base, 'admin@demo.clinic');
    expect((await admin('/api/objects/upload', { method: 'POST' })).status).toBe(200);
    expect(fs.readdirSync(path.join(fresh, 'pg')).length).toBeGreaterThan(10);
    expect(openToOthers(fresh)).toEqual([]);
    expect(await app.stop()).toBe(0);

    // As an earlier release left it: the directories 0755, the engine's files 0666.
    const walk = (target: string) => {
      const stat = fs.lstatSync(target);
      fs.chmodSync(target, stat.isDirectory() ? 0o755 : 0o666);
      if (stat.isDirectory()) for (const name of fs.readdirSync(target)) walk(path.join(target, name));
    };
    walk(fresh);
    expect(openToOthers(fresh).length).toBeGreaterThan(100);
    const again = await startServer({ DATA_DIR: fresh });
    servers.push(again);
    expect(openToOthers(fresh)).toEqual([]);
    expect(await again.stop()).toBe(0);
  });
});

describe.runIf(EMBEDDED_RUN)('npm start under a supervisor (issue 48)', () => {
  it('stops, database closed, when SIGTERM reaches npm alone', async () => {
    const dataDir = path.join(root, 'under-npm');
    const app = await startServer({ DATA_DIR: dataDir, NODE_ENV: 'production', npm_config_loglevel: 'silent' }, ['npm', 'start']);
    servers.push(app);
    app.child.kill('SIGTERM');
    await app.exited;
    // The server npm started goes too: its port stops answering and its data directory is free.
    for (
      let waited = 0;
      await fetch(`${app.base}/api/health`).then(
        () => true,
        () => false,
      );
      waited += 100
    ) {
      expect(waited, app.output()).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await startServer({ DATA_DIR: dataDir });
    servers.push(again);
    expect(await again.stop()).toBe(0);
  });
});

describe.runIf(EMBEDDED_RUN)('SIGTERM with a client that never finishes its request (issue 48)', () => {
  it('cuts that connection after a few seconds and still closes the database in order: exit 0', async () => {
    const app = await startServer({ DATA_DIR: path.join(root, 'slow-client') });
    servers.push(app);
    const { port } = new URL(app.base);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers begun, never ended: the connection is busy, so a drain alone would wait on it for good.
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const started = Date.now();
    app.child.kill('SIGTERM');
    expect(await app.exited, app.output()).toBe(0);
    expect(Date.now() - started).toBeLessThan(9_000);
    await closed;
  });
});
