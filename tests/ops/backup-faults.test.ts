import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_RUN, runScript, signIn, startServer, type ServerProcess } from './server-process.ts';

// Issue 48: a backup that cannot be written is a recorded failure, never the end of the app; and
// a backup command never writes where it should not. A full disk is a small tmpfs (root only:
// CI runs as root), mounted for the test and unmounted after it.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-backup-faults-'));
const servers: ServerProcess[] = [];
const mounts: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const dir of mounts) execFileSync('umount', [dir]);
  fs.rmSync(root, { recursive: true, force: true });
});

/** A directory on a filesystem of `kb` kilobytes that fills at once. */
function smallDisk(name: string, kb: number): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

describe.runIf(EMBEDDED_RUN && process.getuid?.() === 0)('a backup onto a disk that fills', () => {
  it("fails, is recorded and shown, leaves no partial copy, and the app serves on: 'Back up now' and npm run backup", async () => {
    const full = smallDisk('full', 256);
    const dataDir = path.join(root, 'data');
    const app = await startServer({ DATA_DIR: dataDir, BACKUP_DIR: full });
    servers.push(app);
    const admin = await signIn(app.base, 'admin@demo.clinic');

    const now = await admin('/api/admin/backups', { method: 'POST' });
    expect(now.status, await now.clone().text()).toBe(503);
    expect(((await now.json()) as { code: string }).code).toBe('backup.failed');
    const status = (await (await admin('/api/admin/backups')).json()) as { lastFailure: { error: string } | null };
    expect(status.lastFailure?.error).toMatch(/ENOSPC|no space/i);

    const command = await runScript(['scripts/backup.ts', full], { DATA_DIR: dataDir });
    expect(command.code, command.output).toBe(1);
    expect(command.output).toMatch(/The backup failed/);

    expect(fs.readdirSync(full)).toEqual([]);
    expect(app.child.exitCode, app.output()).toBeNull();
    expect((await fetch(`${app.base}/api/health`)).status).toBe(200);
    expect((await admin('/api/patients?limit=1')).status).toBe(200);
  });
});

describe.runIf(EMBEDDED_RUN)('a backup command that would write where it should not', () => {
  it('refuses a destination that does not exist unless --create asks, gives up on a frozen app, and refuses a DATA_DIR with no database', async () => {
    const dataDir = path.join(root, 'data-for-refusals');
    const app = await startServer({ DATA_DIR: dataDir });
    servers.push(app);
    const missing = path.join(root, 'not-mounted', 'backups');
    const refused = await runScript(['scripts/backup.ts', missing], { DATA_DIR: dataDir });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toMatch(/does not exist \(is its disk mounted\?\)/);
    expect(fs.existsSync(missing)).toBe(false);
    const created = await runScript(['scripts/backup.ts', missing, '--create'], { DATA_DIR: dataDir });
    expect(created.code, created.output).toBe(0);
    expect(fs.readdirSync(missing)).toHaveLength(1);

    // A frozen app takes the connection (the kernel does) but never answers: the command says so.
    process.kill(app.child.pid!, 'SIGSTOP');
    const frozen = await runScript(['scripts/backup.ts', missing], { DATA_DIR: dataDir });
    process.kill(app.child.pid!, 'SIGCONT');
    expect(frozen.code, frozen.output).toBe(1);
    expect(frozen.output).toMatch(/did not answer within 10 s: it may be frozen/);
    expect(await app.stop()).toBe(0);

    const empty = path.join(root, 'mistyped-data-dir');
    const none = await runScript(['scripts/backup.ts', root], { DATA_DIR: empty });
    expect(none.code, none.output).toBe(1);
    expect(none.output).toMatch(/There is no embedded database in/);
    expect(fs.existsSync(empty)).toBe(false);
  });
});
