import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_RUN, signIn, startServer, type ServerProcess } from './server-process.ts';

// Issue 48: the embedded engine, on a disk that fills or turns read-only under writes. PGlite
// does not fail such a write: it spins, and nothing answers again (health and SIGTERM included)
// even once the disk is freed. The app keeps it from ever being asked: 503 `server.storage`
// while DATA_DIR cannot take writes, health saying so, and back by itself when it can. The disk
// is a tmpfs of the test's, and the app runs as another account (root only: CI runs as root).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-storage-'));
const disk = path.join(root, 'disk');
const servers: ServerProcess[] = [];
let mounted = false;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (mounted) execFileSync('umount', ['-l', disk]);
  fs.rmSync(root, { recursive: true, force: true });
});

const NOBODY = { uid: 65534, gid: 65534 };
type Outcome = { status: number; id?: string } | { error: string };
/** Three long texts the engine cannot compress away: each write takes its room on the disk. */
const incompressible = () =>
  Object.fromEntries(['medicalHistory', 'allergies', 'currentMedications', 'address'].map((k) => [k, randomBytes(7_000).toString('base64')]));
const freeBytes = () => {
  const { bavail, bsize } = fs.statfsSync(disk);
  return bavail * bsize;
};

describe.runIf(EMBEDDED_RUN && process.getuid?.() === 0)('the embedded engine when its disk fills or turns read-only under writes', () => {
  it('answers 503 server.storage meanwhile (health too), keeps serving, and takes writes again by itself, losing none acknowledged', async () => {
    // The way in must be open to that account; DATA_DIR itself is its own, 0700.
    fs.chmodSync(root, 0o755);
    fs.mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256m,mode=0755', 'tmpfs', disk]);
    mounted = true;
    // The app runs as another account than root, so that a permission taken away stops it.
    const dataDir = path.join(disk, 'data');
    fs.mkdirSync(dataDir, { mode: 0o700 });
    fs.chownSync(dataDir, NOBODY.uid, NOBODY.gid);
    const app = await startServer({ DATA_DIR: dataDir, DATA_DIR_MIN_FREE_MB: '64', HOME: dataDir }, undefined, NOBODY);
    servers.push(app);
    const admin = await signIn(app.base, 'admin@demo.clinic');
    // Leave about 100 MB: the writes below take it under the floor within seconds.
    const filler = path.join(disk, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes() - 100 * 1024 * 1024)));

    const outcomes: Outcome[] = [];
    let stop = false;
    const writers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; !stop; i += 1) {
        try {
          const res = await admin('/api/patients', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              firstName: `Disk${w}n${i}`,
              lastName: `Full${randomBytes(3).toString('hex')}`,
              dateOfBirth: '1970-01-01',
              ...incompressible(),
            }),
            signal: AbortSignal.timeout(10_000),
          });
          outcomes.push({ status: res.status, id: ((await res.json()) as { id?: string }).id });
          if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
        } catch (error) {
          outcomes.push({ error: (error as Error).message });
        }
      }
    });
    const healthCode = async () => {
      const res = await fetch(`${app.base}/api/health`, { signal: AbortSignal.timeout(3_000) });
      return res.status === 200 ? 'ok' : ((await res.json()) as { code: string }).code;
    };
    const waitFor = async (want: string, what: string) => {
      for (let waited = 0; (await healthCode()) !== want; waited += 100) {
        expect(waited, `${what}: ${app.output().slice(-2000)}`).toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // The disk fills: refused, and health says why.
    await waitFor('server.storage', 'the disk filling');
    const refusedAt = outcomes.length;
    fs.rmSync(filler);
    await waitFor('ok', 'space freed');
    // Its directory made unwritable (an operator's chmod, a volume mounted wrongly), then writable again.
    execFileSync('chmod', ['-R', 'a-w', dataDir]);
    await waitFor('server.storage', 'the directory made unwritable');
    execFileSync('chmod', ['-R', 'u+w', dataDir]);
    await waitFor('ok', 'the directory writable again');
    const again = outcomes.length;
    for (let waited = 0; !outcomes.slice(again).some((o) => 'status' in o && o.status === 201); waited += 100) {
      expect(waited, app.output().slice(-2000)).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await Promise.all(writers);

    expect(refusedAt).toBeGreaterThan(0);
    expect(app.child.exitCode, app.output()).toBeNull();
    expect(outcomes.filter((o) => 'error' in o)).toEqual([]);
    expect([...new Set(outcomes.map((o) => ('status' in o ? o.status : 0)))].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    const acknowledged = outcomes.flatMap((o) => ('status' in o && o.status === 201 && o.id ? [o.id] : []));
    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await admin(`/api/patients/${id}`);
      if (res.status !== 200) missing.push(id);
      await res.arrayBuffer();
    }
    expect(missing).toEqual([]);
    expect(await app.stop(), app.output().slice(-3000)).toBe(0);
  });
});

describe.runIf(EMBEDDED_RUN && process.getuid?.() === 0)('a process the engine has stuck for good', () => {
  it('is ended by its watchdog, saying why, for its supervisor to start it again', async () => {
    // The guard's floor turned off, and a disk with less room than the engine's next log segment:
    // the engine spins inside a commit, as it did before the guard (issue 48).
    const small = path.join(root, 'small');
    fs.mkdirSync(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m,mode=0700', 'tmpfs', small]);
    try {
      const app = await startServer({ DATA_DIR: path.join(small, 'data'), DATA_DIR_MIN_FREE_MB: '0', LOOP_WATCHDOG_SECONDS: '5' });
      servers.push(app);
      const admin = await signIn(app.base, 'admin@demo.clinic');
      const { bavail, bsize } = fs.statfsSync(small);
      fs.writeFileSync(path.join(small, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 6 * 1024 * 1024)));
      const writers = Array.from({ length: 6 }, async (_, w) => {
        for (let i = 0; app.child.exitCode === null && app.child.signalCode === null; i += 1) {
          await admin('/api/patients', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ firstName: `Stuck${w}n${i}`, lastName: `Spin${randomBytes(3).toString('hex')}`, ...incompressible() }),
            signal: AbortSignal.timeout(2_000),
          })
            // The timeout may fall while the body is read, too: either way this writer goes on.
            .then((res) => res.arrayBuffer())
            .catch(() => null);
        }
      });
      await app.exited;
      await Promise.all(writers);
      expect(app.child.signalCode, app.output()).toBe('SIGKILL');
      expect(app.output()).toMatch(/The app has not run for \d+ s \(its event loop is stuck\): stopping it so that its supervisor starts it again/);
    } finally {
      execFileSync('umount', ['-l', small]);
    }
  });
});
