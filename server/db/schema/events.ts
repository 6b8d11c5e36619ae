import { bigserial, index, jsonb, pgTable, uuid, varchar } from 'drizzle-orm/pg-core';
import type { TDomainEvent } from '#domain/live-events';
import { at } from './columns.ts';

/**
 * Every committed domain event, numbered by a sequence and written in the
 * transaction that raised it: the transactional outbox. Each app instance learns of new rows
 * (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and hands them to its subscribers; a live
 * socket that reconnects is sent what it missed from here. Rows are pruned after a day.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    type: varchar('type', { length: 50 }).notNull(),
    payload: jsonb('payload').notNull().$type<TDomainEvent>(),
    // Who the event is addressed to, when it is addressed to one user (a notification).
    userId: uuid('user_id'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('live_events_user_idx').on(t.userId, t.seq), index('live_events_created_idx').on(t.createdAt)],
);
