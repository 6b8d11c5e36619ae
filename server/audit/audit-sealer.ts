import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { openSession, queryRows, type Db, type DatabaseSession, type Queryable } from '../db/database.ts';
import { loggableError } from '../http/loggable-error.ts';

/** The job's name in `app.jobs`: a test, or an operator's tool, seals now with it. */
export const AUDIT_SEAL_JOB = 'audit seal';
/** Rows linked per transaction: large enough to keep up with thousands a second, small enough to commit quickly. */
const SEAL_BATCH = 1000;
/** The session lock that makes one instance the sealer (migration 0019 locks 727002 per batch). */
const SEALER_LEASE = 727003;
/** How often an instance without the lease asks for it again: the longest the chain goes unsealed after its sealer dies. */
const LEASE_RETRY_MS = 1000;

/**
 * Links committed audit rows into the chain, a batch per transaction, until nothing more can be
 * sealed now (or `maxBatches` is done); answers how many rows. The database decides what may be
 * sealed and in which order (audit_seal, migration 0019); anyone may call this at any time, one
 * caller seals at a time.
 */
export async function sealAuditTrail(q: Queryable, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
  let sealed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const [row] = await queryRows<{ n: number }>(q, sql`select audit_seal(${SEAL_BATCH}) as n`);
    sealed += row!.n;
    if (row!.n < SEAL_BATCH) break;
  }
  return sealed;
}

/**
 * Seals every row committed before this call, for a reader that must see them (the viewer, the
 * export). A row may have to wait for an older transaction still in flight (a few milliseconds,
 * usually); after `waitMs` this gives up and the reader shows what is sealed.
 */
export async function sealCommitted(q: Queryable, waitMs = 2000): Promise<void> {
  const [start] = await queryRows<{ last: string | null }>(q, sql`select max(n)::text as last from audit_events where seq is null`);
  if (!start?.last) return;
  const deadline = Date.now() + waitMs;
  for (;;) {
    await sealAuditTrail(q, 5);
    const [left] = await queryRows<{ any: boolean }>(
      q,
      sql`select exists (select 1 from audit_events where seq is null and n <= ${start.last}::bigint) as any`,
    );
    if (!left!.any || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A pause the app's close can cut short. */
function pauses() {
  let wake: (() => void) | null = null;
  return {
    pause: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wake?.(),
  };
}

/**
 * The sealer: while the app is up, this instance competes for one lease, a session-level
 * advisory lock on a connection of its own. The holder seals continuously (every `everyMs` once
 * it has caught up); the others ask again every second, so when the holder's process or
 * connection dies the database drops its lock and another instance takes over. A batch cut off
 * midway rolls back whole: the next holder starts from the last committed link.
 */
export function runAuditSealer(app: FastifyInstance, db: Db, everyMs: number): void {
  app.jobs.set(AUDIT_SEAL_JOB, () => sealAuditTrail(db));
  if (everyMs <= 0) return;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const { pause, wake } = pauses();

  /** Asks for the lease on this connection every second until it has it, then seals until stopped. */
  async function holdLease(session: DatabaseSession): Promise<void> {
    for (;;) {
      if (stopped || session.lost()) return;
      const [lease] = await queryRows<{ held: boolean }>(session.db, sql`select pg_try_advisory_lock(${SEALER_LEASE}) as held`);
      if (lease!.held) break;
      await pause(LEASE_RETRY_MS);
    }
    while (!stopped && !session.lost()) {
      const started = performance.now();
      const sealed = await sealAuditTrail(session.db, 1);
      // Caught up: wait a little. Behind (the batch was full): straight on where the database
      // does the work elsewhere (PostgreSQL). Where it does it in this very process (PGlite),
      // batches back to back never let the event loop turn (20,000 rows held every request for a
      // second): there give way for as long as the batch took, working a backlog (after a
      // restore, a start, a burst) off at half speed instead of holding the app.
      if (sealed < SEAL_BATCH) await pause(everyMs);
      else if (session.inProcess) await pause(Math.max(1, performance.now() - started));
    }
  }

  async function compete(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      let session: DatabaseSession | null = null;
      try {
        session = await openSession(db, 'ehr-audit-sealer');
        await holdLease(session);
        failures = 0;
      } catch (error) {
        if (stopped) break;
        failures += 1;
        app.log.error({ err: loggableError(error) }, 'audit sealer failed; retrying');
        await pause(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      } finally {
        // Closing the connection gives up the lease.
        await session?.close();
      }
    }
  }

  app.addHook('onReady', async () => {
    running = compete();
  });
  app.addHook('onClose', async () => {
    stopped = true;
    wake();
    await running;
  });
}
