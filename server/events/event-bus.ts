import { inArray, sql } from 'drizzle-orm';
import type { TDomainEvent } from '#domain/live-events';
import type { Database, Queryable } from '../db/database.ts';
import { liveEvents } from '../db/schema/events.ts';

/** A committed domain event with its place in the outbox (a client resumes from it). */
export interface LiveEvent {
  seq: number;
  event: TDomainEvent;
}

export type EventHandler = (event: LiveEvent) => void | Promise<void>;

/**
 * Where committed domain events go. Services never call it directly: they raise events inside a
 * transaction (db/transaction.ts), which stages them in that transaction and tells the bus once
 * it has committed. Staging writes the transactional outbox (`live_events`), so an event exists
 * exactly when the change it describes does.
 */
export interface EventBus {
  /** Inside the raising transaction: writes the events to the outbox. */
  stage(tx: Queryable, events: readonly TDomainEvent[]): Promise<LiveEvent[]>;
  /** After the commit. */
  committed(events: readonly LiveEvent[]): void;
  /** Returns the unsubscribe function. */
  subscribe(handler: EventHandler): () => void;
  /**
   * For what an instance keeps in memory (its caches): told of each committed event at once, on
   * the raising instance as its transaction commits (so the writer's next read sees the change)
   * and on every other instance as the event reaches it. Never inside a transaction: a rollback
   * would have cleared for nothing, and a read before the commit would cache the old value. Must
   * be cheap and synchronous. Returns the unsubscribe function.
   */
  onCommit(forget: (event: TDomainEvent) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'live_events';

/** The user an event is addressed to, when it is addressed to one (kept for replay to their sockets). */
function addressee(event: TDomainEvent): string | null {
  return event.type === 'notification.created' || event.type === 'notification.read' || event.type === 'notifications.resolved' ? event.userId : null;
}

async function writeOutbox(tx: Queryable, events: readonly TDomainEvent[]): Promise<LiveEvent[]> {
  if (events.length === 0) return [];
  const rows = await tx
    .insert(liveEvents)
    .values(events.map((event) => ({ type: event.type, payload: event, userId: addressee(event) })))
    .returning({ seq: liveEvents.seq, payload: liveEvents.payload });
  return rows.map((r) => ({ seq: r.seq, event: r.payload }));
}

/**
 * Hands events to subscribers after the publishing request has moved on (a slow or failing
 * subscriber never delays or fails a write that already committed); failures are reported.
 */
function createDispatcher(onHandlerError: (error: unknown, event: LiveEvent) => void) {
  const handlers = new Set<EventHandler>();
  const forgetters = new Set<(event: TDomainEvent) => void>();
  const added = <H>(set: Set<H>, handler: H) => {
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  };
  /** The caches first, synchronously: a request that follows sees them forgotten. */
  const forget = (events: readonly LiveEvent[]) => {
    for (const event of events) {
      for (const forgetter of forgetters) {
        try {
          forgetter(event.event);
        } catch (error) {
          onHandlerError(error, event);
        }
      }
    }
  };
  return {
    subscribe: (handler: EventHandler) => added(handlers, handler),
    onCommit: (forgetter: (event: TDomainEvent) => void) => added(forgetters, forgetter),
    forget,
    dispatch(events: readonly LiveEvent[]) {
      if (events.length === 0) return;
      forget(events);
      if (handlers.size === 0) return;
      const snapshot = [...handlers];
      setImmediate(() => {
        for (const event of events) {
          for (const handler of snapshot) {
            try {
              Promise.resolve(handler(event)).catch((error: unknown) => onHandlerError(error, event));
            } catch (error) {
              onHandlerError(error, event);
            }
          }
        }
      });
    },
  };
}

/** One instance on its own: committed events go straight to this instance's subscribers. */
export function createInProcessEventBus(onHandlerError: (error: unknown, event: LiveEvent) => void = () => {}): EventBus {
  const dispatcher = createDispatcher(onHandlerError);
  return {
    stage: writeOutbox,
    committed: (events) => dispatcher.dispatch(events),
    subscribe: dispatcher.subscribe,
    onCommit: dispatcher.onCommit,
    close: async () => {},
  };
}

/**
 * Every instance on one database: a transaction that stages events also NOTIFYs their sequence
 * numbers, which the database delivers at commit (and never on rollback) to every instance
 * listening, this one included; each reads those rows and hands them to its subscribers. After
 * a lost connection the listener catches up on every event it missed, from the outbox.
 * Payloads carry ids only: a subscriber reads what its recipient may see when it sends.
 */
export async function createDatabaseEventBus(database: Database, onHandlerError: (error: unknown, event: LiveEvent) => void = () => {}): Promise<EventBus> {
  const { db } = database;
  const dispatcher = createDispatcher(onHandlerError);
  const [{ max } = { max: 0 }] = await db.select({ max: sql<number>`coalesce(max(${liveEvents.seq}), 0)::bigint` }).from(liveEvents);
  let lastSeen = Number(max);
  // Recent sequence numbers already handed on: a catch-up and a NOTIFY may name the same event.
  const recent = new Set<number>();

  const deliver = (rows: { seq: number; payload: TDomainEvent }[]) => {
    const fresh = rows.filter((r) => !recent.has(r.seq)).sort((a, b) => a.seq - b.seq);
    for (const r of fresh) {
      recent.add(r.seq);
      lastSeen = Math.max(lastSeen, r.seq);
    }
    if (recent.size > 10_000) for (const seq of [...recent].slice(0, recent.size - 5_000)) recent.delete(seq);
    dispatcher.dispatch(fresh.map((r) => ({ seq: r.seq, event: r.payload })));
  };
  const select = { seq: liveEvents.seq, payload: liveEvents.payload };

  const stop = await database.listen(
    CHANNEL,
    (payload) => {
      const seqs = parseSeqs(payload);
      if (seqs.length === 0) return;
      db.select(select)
        .from(liveEvents)
        .where(inArray(liveEvents.seq, seqs))
        .then(deliver, () => {});
    },
    () => {
      // (Re)connected: anything committed while the listener was away is in the outbox.
      db.select(select)
        .from(liveEvents)
        .where(sql`${liveEvents.seq} > ${lastSeen}`)
        .orderBy(liveEvents.seq)
        .limit(10_000)
        .then(deliver, () => {});
    },
  );

  return {
    async stage(tx, events) {
      const staged = await writeOutbox(tx, events);
      if (staged.length > 0) await tx.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(staged.map((e) => e.seq))})`);
      return staged;
    },
    // The NOTIFY reaches this instance's listener too (and its caches are told again then, which
    // costs nothing): only the caches are told now, before the writer's next request.
    committed: (events) => dispatcher.forget(events),
    subscribe: dispatcher.subscribe,
    onCommit: dispatcher.onCommit,
    close: stop,
  };
}

function parseSeqs(payload: string): number[] {
  try {
    const value: unknown = JSON.parse(payload);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

/** Events addressed to a user after a sequence number: what a reconnecting socket missed. */
export async function eventsForUserSince(q: Queryable, userId: string, afterSeq: number, limit = 500): Promise<LiveEvent[]> {
  const rows = await q
    .select({ seq: liveEvents.seq, payload: liveEvents.payload })
    .from(liveEvents)
    .where(sql`${liveEvents.userId} = ${userId} and ${liveEvents.seq} > ${afterSeq}`)
    .orderBy(liveEvents.seq)
    .limit(limit);
  return rows.map((r) => ({ seq: r.seq, event: r.payload }));
}

/** The oldest and the latest sequence number the outbox keeps (null when it is empty). */
export async function outboxBounds(q: Queryable): Promise<{ oldest: number | null; latest: number }> {
  const [row] = await q.select({ oldest: sql<string | null>`min(${liveEvents.seq})`, latest: sql<string | null>`max(${liveEvents.seq})` }).from(liveEvents);
  return { oldest: row?.oldest == null ? null : Number(row.oldest), latest: Number(row?.latest ?? 0) };
}

/** Outbox rows older than a day: every instance has long since handed them on. */
export async function pruneLiveEvents(q: Queryable, now: Date): Promise<void> {
  await q.delete(liveEvents).where(sql`${liveEvents.createdAt} < ${new Date(now.getTime() - 24 * 3_600_000).toISOString()}::timestamptz`);
}
