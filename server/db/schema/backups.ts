import { bigint, index, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { BACKUP_OUTCOMES, BACKUP_TRIGGERS } from '#domain/backups';
import { at, id } from './columns.ts';

/**
 * Every backup the app took of itself (issue 36; backup/write-backup.ts), for the Settings tab's
 * "last successful backup" and the overdue check. A row is written after its backup: a backup
 * never holds its own row.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: id(),
    startedAt: at('started_at').notNull(),
    finishedAt: at('finished_at').notNull(),
    outcome: varchar('outcome', { length: 20, enum: BACKUP_OUTCOMES }).notNull(),
    trigger: varchar('trigger', { length: 20, enum: BACKUP_TRIGGERS }).notNull(),
    name: varchar('name', { length: 200 }),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
  },
  (t) => [index('backup_runs_finished_idx').on(t.outcome, t.finishedAt)],
);
