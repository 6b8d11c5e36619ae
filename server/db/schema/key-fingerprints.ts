import { pgTable, varchar } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';

/**
 * Which keys this database's data was written with (issue 48): the SHA-256 fingerprint of the
 * files key and of the audit head's key, recorded by the first instance to start. Another
 * instance with different keys (its own DATA_DIR, no FILES_KEY shared) is refused at start:
 * attachments it stored would not open through the others, and the reverse.
 */
export const keyFingerprints = pgTable('key_fingerprints', {
  name: varchar('name', { length: 40 }).primaryKey(),
  fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
  recordedAt: at('recorded_at').notNull().defaultNow(),
});
