import { timestamp, uuid } from 'drizzle-orm/pg-core';

// Shared column shapes: every entity has a uuid id and, unless the spec says otherwise,
// createdAt and updatedAt. Timestamps carry a time zone so the clinic's clock is never guessed.
export const id = () => uuid('id').primaryKey().defaultRandom();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const timestamps = () => ({ createdAt: at('created_at').notNull().defaultNow(), updatedAt: at('updated_at').notNull().defaultNow() });
