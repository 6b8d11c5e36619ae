import fs from 'node:fs';
import os from 'node:os';

/**
 * The embedded engine runs inside one process and does not notice a second one opening the
 * same files: both would write and the database would be corrupted. So whoever opens a PGlite
 * data directory first takes this lock (a file beside it naming the process), and another
 * process (a second app, `npm run create-admin` while the app runs) is refused with a message.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly lockFile: string,
    holder: string,
  ) {
    super(
      `The embedded database is in use by ${holder} (lock file ${lockFile}). ` +
        'Stop the app first: the embedded engine allows one process at a time. ' +
        'If no such process is running, delete the lock file and try again.',
    );
    this.name = 'DataDirInUseError';
  }
}

interface Holder {
  pid: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockFile: string): Holder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? { pid: parsed.pid, host: parsed.host } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock on `dataDir` (the file `<dataDir>.lock`) and returns its release. A lock left
 * by a process that no longer runs on this machine (a crash, a kill -9), or one naming this very
 * process (a container restarted under the same pid), is taken over; a lock from another
 * machine cannot be checked and is respected.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  const me: Holder = { pid: process.pid, host: os.hostname() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(me), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockFile);
      const stale = holder !== null && holder.host === me.host && (holder.pid === me.pid || !alive(holder.pid));
      if (!stale || attempt > 0) {
        throw new DataDirInUseError(lockFile, holder ? `process ${holder.pid} on ${holder.host}` : 'another process');
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own: never remove a lock another process took over after ours went stale.
    if (readHolder(lockFile)?.pid === me.pid) fs.rmSync(lockFile, { force: true });
  };
  // A process that exits without closing the database (process.exit) still leaves no lock.
  process.on('exit', release);
  return release;
}
