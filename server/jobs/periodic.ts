import type { FastifyInstance } from 'fastify';
import { loggableError } from '../http/loggable-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The periodic jobs by name: what the timers run, for a test (or an operator's tool) to run now. */
    jobs: Map<string, () => Promise<unknown>>;
  }
}

/**
 * A job the app runs every so often while it is up (clean-ups, escalations): started once the
 * app is ready, stopped when it closes, never overlapping itself, its failures logged rather than
 * thrown. Each instance of the app runs its own; a job that must act once across instances
 * claims its work in the database (an `update … where not yet done … returning`), so two
 * instances, or two runs, never do the same thing twice.
 */
export function runPeriodically(
  app: FastifyInstance,
  name: string,
  everyMs: number,
  run: () => Promise<unknown>,
  options: { firstAfterMs?: number } = {},
): void {
  app.jobs.set(name, run);
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    run()
      .catch((error: unknown) => app.log.error({ err: loggableError(error) }, `${name} failed`))
      .finally(() => {
        running = false;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, everyMs);
    timer.unref();
    if (options.firstAfterMs !== undefined) {
      first = setTimeout(tick, options.firstAfterMs);
      first.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearTimeout(first);
  });
}
