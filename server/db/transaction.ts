import type { TDomainEvent } from '#domain/live-events';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import type { Db, Tx } from './database.ts';

/** Raises a domain event; it is delivered only if the transaction it was raised in commits. */
export type Raise = (event: TDomainEvent) => void;

/**
 * Runs a service's work in one transaction. Events raised inside it are written to the outbox
 * in that same transaction, and delivered once the commit has succeeded; on a rollback (a
 * thrown error, a refused write) they are gone with it, so nobody is ever told about a change
 * that did not happen.
 */
export async function inTransaction<T>(deps: { db: Db; events: EventBus }, work: (tx: Tx, raise: Raise) => Promise<T>): Promise<T> {
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
