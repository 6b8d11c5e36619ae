import { isDatabaseAway } from './sql-state.ts';

/**
 * A PostgreSQL server the app could not reach at start within DATABASE_WAIT_SECONDS. The
 * process then exits non-zero, for its orchestrator to restart it or show it failed (issue 55).
 */
export class DatabaseUnreachableError extends Error {
  constructor(where: string, seconds: number, cause: unknown) {
    super(`The database at ${where} could not be reached in ${seconds} s (${reasonOf(cause)}). Check DATABASE_URL and that the server is running.`);
    this.name = 'DatabaseUnreachableError';
  }
}

/** Where a connection string points, without its user or password (for messages). */
export function whereOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ') || String(error);
}

export interface WaitOptions {
  /** How long to keep trying; 0 tries once. */
  seconds: number;
  /** Tries once: resolves when the server answered, rejects with what it said otherwise. */
  connect: () => Promise<void>;
  log?: (line: string) => void;
  /** The pause between tries (ms): doubled each time up to 5 s. */
  firstPauseMs?: number;
}

/**
 * Waits for a PostgreSQL server that is starting or restarting (compose starts the app beside
 * it; a host reboots both): a refused, dropped or unresolved connection, or a server still
 * starting up (57P03), is tried again, saying so, until `seconds` have gone. Anything else (a
 * wrong password, a missing database) is thrown at once: waiting would not mend it.
 */
export async function waitForDatabase(where: string, options: WaitOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.warn(line));
  const deadline = Date.now() + options.seconds * 1000;
  let pause = options.firstPauseMs ?? 500;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await options.connect();
      if (attempt > 1) log(`The database at ${where} answered (try ${attempt}).`);
      return;
    } catch (error) {
      if (!isDatabaseAway(error)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw new DatabaseUnreachableError(where, options.seconds, error);
      const wait = Math.min(pause, left);
      log(`Waiting for the database at ${where} (${reasonOf(error)}): trying again in ${(wait / 1000).toFixed(1)} s.`);
      await new Promise((resolve) => setTimeout(resolve, wait));
      pause = Math.min(pause * 2, 5_000);
    }
  }
}
