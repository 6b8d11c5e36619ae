import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_STALE_MS, lockDataDir } from '../../server/db/data-dir-lock.ts';

// Issue 48: after a kill -9, a container recreated under a new host name found the old lock and
// was refused until someone deleted it by hand. A lock from another host is taken over once its
// holder has stopped renewing it; one still renewed is respected.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A lock as another holder left it, renewed `ageMs` ago. */
function leftLock(name: string, holder: { pid: number; host: string; pidns?: string }, ageMs: number): string {
  const dir = path.join(root, name);
  fs.writeFileSync(`${dir}.lock`, JSON.stringify(holder));
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(`${dir}.lock`, at, at);
  return dir;
}

describe('the data directory lock', () => {
  it('is taken over from another host once its holder stopped renewing it, and the new holder is written', () => {
    const dir = leftLock('recreated', { pid: 1, host: 'old-container' }, LOCK_STALE_MS + 5_000);
    const release = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(`${dir}.lock`, 'utf8'))).toEqual({ pid: process.pid, host: os.hostname(), pidns: fs.readlinkSync('/proc/self/ns/pid') });
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('is respected while another host still renews it, naming that host', () => {
    const dir = leftLock('shared-volume', { pid: 1, host: 'other-container' }, 1_000);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(/process 1 on other-container/);
  });

  // Issue 55: two containers on the host's network share its host name, and each app is pid 1.
  // The second one read the first's lock as its own pid's, so its own predecessor's, and took it.
  it('is respected from another pid namespace on this host, even naming this very pid, while renewed', () => {
    const holder = { pid: process.pid, host: os.hostname(), pidns: 'pid:[1]' };
    const renewed = leftLock('host-network', holder, 1_000);
    expect(() => lockDataDir(renewed)).toThrow(DataDirInUseError);
    const abandoned = leftLock('host-network-abandoned', holder, LOCK_STALE_MS + 5_000);
    lockDataDir(abandoned)();
  });

  it('is taken over on this host when its process is gone, however recently it was renewed', () => {
    const gone = 2 ** 22 + 12_345;
    const dir = leftLock('crashed', { pid: gone, host: os.hostname() }, 0);
    lockDataDir(dir)();
  });
});
