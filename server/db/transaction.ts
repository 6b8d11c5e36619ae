import type { TDomainEvent } from '#domain/live-events';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import type { Db, Tx } from './database.ts';
import { isTransientConflict } from './sql-state.ts';

/** Raises a domain event; it is delivered only if the transaction it was raised in commits. */
export type Raise = (event: TDomainEvent) => void;

/** How often a transaction is run when the database aborts it for a deadlock or a serialization failure. */
const ATTEMPTS = 4;

/**
 * Runs a service's work in one transaction. Events raised inside it are written to the outbox
 * in that same transaction, and delivered once the commit has succeeded; on a rollback (a
 * thrown error, a refused write) they are gone with it, so nobody is ever told about a change
 * that did not happen.
 *
 * When PostgreSQL aborts the transaction because of one running beside it (a deadlock, a
 * serialization failure: sql-state.ts), nothing of it was kept, and it is run again from the
 * start, after a short random wait so the two do not meet again. `work` must therefore only
 * talk to the database (no files, no mail, no outside calls) and start from its arguments:
 * every service's work here does. What still fails after the last attempt is answered 503
 * `server.busy` with Retry-After (plugins/error-handler.ts).
 */
export async function inTransaction<T>(deps: { db: Db; events: EventBus }, work: (tx: Tx, raise: Raise) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(deps, work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

async function runOnce<T>(deps: { db: Db; events: EventBus }, work: (tx: Tx, raise: Raise) => Promise<T>): Promise<T> {
  let staged: LiveEvent[] = [];
  const result = await deps.db.transaction(async (tx) => {
    const pending: TDomainEvent[] = [];
    const value = await work(tx, (event) => {
      pending.push(event);
    });
    staged = await deps.events.stage(tx, pending);
    return value;
  });
  deps.events.committed(staged);
  return result;
}
