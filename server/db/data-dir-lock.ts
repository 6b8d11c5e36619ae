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
        'If no such process is running, delete the lock file and try again ' +
        `(one held from another host is taken over by itself once it has gone ${LOCK_STALE_MS / 1000} s without renewal).`,
    );
    this.name = 'DataDirInUseError';
  }
}

interface Holder {
  pid: number;
  host: string;
  /** The holder's process-id namespace (Linux), where it knows it: pids compare only within one. */
  pidns?: string;
}

/**
 * Which pid namespace this process is in. Containers on the host's network share its host name
 * but not its pids: each app is pid 1 in its own namespace (issue 55), so a lock naming pid 1 on
 * this host is not this process's, nor provably gone, unless it was taken in this namespace.
 */
function pidNamespace(): string | undefined {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
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
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    return { pid: parsed.pid, host: parsed.host, ...(typeof parsed.pidns === 'string' ? { pidns: parsed.pidns } : {}) };
  } catch {
    return null;
  }
}

/** How often a holder renews its lock, and how old a renewal may be before another machine may take it over. */
export const LOCK_HEARTBEAT_MS = 5_000;
export const LOCK_STALE_MS = 30_000;

/**
 * Whether a lock can be taken over: its holder is provably gone. In this process's own pid
 * namespace on this machine, when no process has its pid (or it is this very process's: its
 * predecessor there is gone). Anywhere else (another host name: a container recreated after a
 * kill -9, on the same volume; another namespace: a second container on the host's network),
 * its pid means nothing here, so only its heartbeat can tell: a holder renews the lock every few
 * seconds, and one not renewed for LOCK_STALE_MS is gone (issue 48: that start used to need an
 * operator to delete the file by hand).
 */
function isStale(lockFile: string, holder: Holder | null, me: Holder, now: number): boolean {
  if (holder === null) return false;
  const sameNamespace = holder.host === me.host && (holder.pidns === undefined || me.pidns === undefined || holder.pidns === me.pidns);
  if (sameNamespace) return holder.pid === me.pid || !alive(holder.pid);
  const renewed = fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? now;
  return now - renewed > LOCK_STALE_MS;
}

/**
 * Takes the lock on `dataDir` (the file `<dataDir>.lock`) and returns its release. A stale lock
 * (isStale) is taken over; any other is respected, and the message says whose it is. While held,
 * the lock is renewed; a holder that finds it taken over (it was frozen past LOCK_STALE_MS and
 * another process started) stops at once rather than write beside it.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  const pidns = pidNamespace();
  const me: Holder = { pid: process.pid, host: os.hostname(), ...(pidns ? { pidns } : {}) };
  const isMe = (holder: Holder | null) => holder?.pid === me.pid && holder.host === me.host && holder.pidns === me.pidns;
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockFile);
      if (!isStale(lockFile, holder, me, Date.now()) || attempt > 0) {
        throw new DataDirInUseError(lockFile, holder ? `process ${holder.pid} on ${holder.host}` : 'another process');
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  const heartbeat = setInterval(() => {
    const holder = readHolder(lockFile);
    if (!isMe(holder)) {
      console.error(
        `The lock on ${dataDir} was taken over by ${holder ? `process ${holder.pid} on ${holder.host}` : 'someone'}: stopping so as not to write beside it.`,
      );
      process.exit(1);
    }
    const now = new Date();
    fs.utimesSync(lockFile, now, now);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off('exit', release);
    // Only our own: never remove a lock another process took over after ours went stale.
    if (isMe(readHolder(lockFile))) fs.rmSync(lockFile, { force: true });
  };
  // A process that exits without closing the database (process.exit) still leaves no lock.
  process.on('exit', release);
  return release;
}
