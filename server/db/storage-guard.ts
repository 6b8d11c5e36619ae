import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether the embedded engine's disk can take writes (issue 48). PGlite does not fail a write it
 * cannot make: a commit whose log cannot be flushed spins in the engine (measured: XLogFlush,
 * 100% of a core, no system call), nothing answers again, health and SIGTERM included, and
 * freeing the disk does not bring it back. So the engine is never asked anything while its
 * disk is short: this guard looks four times a second (free space above a floor, and a small
 * file written, synced and removed, off the event loop), and the app answers 503
 * `server.storage` meanwhile, health too, until it can write again. A floor of free space
 * makes a filling disk safe; a directory made unwritable between two looks can still catch
 * the engine mid-write, which the loop watchdog (server/loop-watchdog.ts) ends.
 */
export interface StorageGuard {
  /** Why nothing can be written now, or null. */
  problem(): string | null;
  /** Looks again (the app does, four times a second); answers the problem. */
  check(): Promise<string | null>;
}

export async function storageGuard(dir: string, minFreeBytes: number): Promise<StorageGuard> {
  const probe = path.join(dir, '.write-probe');
  let problem: string | null = null;
  async function findProblem(): Promise<string | null> {
    try {
      const { bavail, bsize } = await fs.promises.statfs(dir);
      const free = bavail * bsize;
      if (free < minFreeBytes) return `the disk of ${dir} has ${mb(free)} free, under the ${mb(minFreeBytes)} the database needs (DATA_DIR_MIN_FREE_MB)`;
      const file = await fs.promises.open(probe, 'w', 0o600);
      try {
        await file.write('ok');
        await file.sync();
      } finally {
        await file.close();
      }
      await fs.promises.rm(probe, { force: true });
      return null;
    } catch (error) {
      return `${dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
  }
  const guard: StorageGuard = { problem: () => problem, check: async () => (problem = await findProblem()) };
  await guard.check();
  return guard;
}

const mb = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;
