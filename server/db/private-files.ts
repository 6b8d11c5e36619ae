import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the clinic's record: the embedded database (patient names are readable in its
 * write-ahead log), the attachments and their keys. Only the account the app runs as may read
 * it, whoever else has a login on the machine: the directory and everything in it are 0700 and
 * 0600. `keepPrivate` sets the process's umask to 077 before the engine opens (PGlite writes
 * its files 0666 less the umask) and tightens what an earlier release left open. Answers the
 * paths it could not tighten (owned by another account), for the caller to warn of.
 */
export function keepPrivate(dir: string): string[] {
  process.umask(0o077);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!isRefused(error)) throw error;
    throw new DataDirNotWritableError(dir, [nearestExisting(dir)]);
  }
  const stuck: string[] = [];
  const unwritable: string[] = [];
  tighten(dir, stuck, unwritable);
  if (unwritable.length > 0) throw new DataDirNotWritableError(dir, unwritable);
  return stuck;
}

/**
 * DATA_DIR, or something in it, that this process may not write: the engine would fail deep
 * inside its start. Typically a container's volume made by another user (issue 55), or a
 * directory restored as root. Said once, with what to do, instead of a stack trace.
 */
export class DataDirNotWritableError extends Error {
  constructor(dir: string, unwritable: string[]) {
    const first = unwritable[0]!;
    const owner = fs.statSync(first, { throwIfNoEntry: false })?.uid;
    const me = process.getuid?.();
    super(
      `DATA_DIR (${dir}) cannot be used by this process (user id ${me ?? 'unknown'}): ${unwritable.length} path(s), first ${first}` +
        `${owner === undefined ? '' : `, owned by user id ${owner}`}. Give DATA_DIR to the account the app runs as ` +
        `(chown -R ${me ?? '<uid>'} ${dir}; in the container image that account is node, user id 1000), or point DATA_DIR elsewhere.`,
    );
    this.name = 'DataDirNotWritableError';
  }
}

const isRefused = (error: unknown) => ['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '');

function nearestExisting(target: string): string {
  let at = path.resolve(target);
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

function tighten(target: string, stuck: string[], unwritable: string[]): void {
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  // A link is the operator's own arrangement (a disk mounted elsewhere): left as it is.
  if (!stat || stat.isSymbolicLink()) return;
  // A directory must take new files; a file must be readable (a key kept read-only is the operator's choice).
  try {
    fs.accessSync(target, stat.isDirectory() ? fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK : fs.constants.R_OK);
  } catch {
    unwritable.push(target);
    return;
  }
  if (stat.mode & 0o077) {
    try {
      fs.chmodSync(target, stat.mode & 0o700);
    } catch {
      stuck.push(target);
    }
  }
  if (stat.isDirectory()) for (const name of fs.readdirSync(target)) tighten(path.join(target, name), stuck, unwritable);
}

const privateDirs = new Set<string>();

/**
 * The embedded engine's own file system (Emscripten's NODEFS) ignores the umask: after creating
 * a file it sets the mode postgres asked for, 0666 in its WebAssembly build, with `fs.chmodSync`.
 * Under the directories named here, that call keeps only the owner's bits, so the engine's
 * files are born 0600 and stay so. Everything else's chmod is untouched.
 */
export function keepEngineFilesPrivate(dir: string): void {
  privateDirs.add(path.resolve(dir) + path.sep);
  if (privateDirs.size > 1) return;
  const chmodSync = fs.chmodSync;
  fs.chmodSync = (target: fs.PathLike, mode: fs.Mode) => {
    const resolved = path.resolve(String(target));
    const inside = [...privateDirs].some((d) => resolved.startsWith(d));
    chmodSync(target, inside && typeof mode === 'number' ? mode & ~0o077 : mode);
  };
}

/** The warning for what `keepPrivate` could not close, or null. */
export function privacyWarning(stuck: string[]): string | null {
  if (stuck.length === 0) return null;
  return `WARNING: ${stuck.length} file(s) in DATA_DIR stay readable by other users of this machine, because this account may not change them (first: ${stuck[0]}). Give them to the account the app runs as (chown -R).`;
}
