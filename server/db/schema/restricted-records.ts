import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uuid, varchar } from 'drizzle-orm/pg-core';
import type { TBreakGlassDisposition, TBreakGlassReason } from '#domain/record-scope';
import { users } from './auth.ts';
import { patients } from './clinical.ts';
import { at, id } from './columns.ts';

/** Who may see a restricted patient's record (issue 33): named by an admin. */
export const patientCareTeam = pgTable(
  'patient_care_team',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: at('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.userId] }), index('patient_care_team_user_idx').on(t.userId)],
);

/**
 * Break-glass: one user, one restricted patient, until `expires_at`, with a reason and a
 * justification. Every use lands in the admins' review queue until one closes it with a
 * disposition.
 */
export const breakGlassGrants = pgTable(
  'break_glass_grants',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: varchar('reason', { length: 30 }).notNull().$type<TBreakGlassReason>(),
    justification: text('justification').notNull(),
    startedAt: at('started_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    reviewedAt: at('reviewed_at'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    disposition: varchar('disposition', { length: 20 }).$type<TBreakGlassDisposition>(),
    reviewNote: text('review_note'),
  },
  (t) => [
    index('break_glass_grants_user_idx').on(t.userId, t.expiresAt),
    index('break_glass_grants_review_idx')
      .on(t.startedAt)
      .where(sql`${t.reviewedAt} is null`),
    check('break_glass_grants_window', sql`expires_at > started_at`),
  ],
);
