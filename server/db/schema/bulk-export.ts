import { index, integer, jsonb, pgTable, primaryKey, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { patients } from './clinical.ts';
import { apiClients } from './api-clients.ts';
import { at, id, timestamps } from './columns.ts';

/**
 * A group of patients the clinic chooses (a study, a payer's members, a care programme), served
 * as a FHIR Group and exported with `Group/{id}/$export` (issue 53; docs/decisions/fhir.md).
 */
export const patientGroups = pgTable('patient_groups', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps(),
});

export const patientGroupMembers = pgTable(
  'patient_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => patientGroups.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    addedAt: at('added_at').notNull().defaultNow(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.patientId] }), index('patient_group_members_patient_idx').on(t.patientId)],
);

/** One file of a finished export: a resource type's NDJSON, kept encrypted as an object. */
export interface TBulkExportFile {
  type: string;
  objectKey: string;
  count: number;
}

/**
 * A Bulk Data export ($export, FHIR Bulk Data Access 2.0): asked for by someone (a person, or
 * the account an API client reads as), run in the background in her scope, its files kept
 * encrypted until `expiresAt` and then removed with the row's `output`.
 */
export const bulkExports = pgTable(
  'bulk_exports',
  {
    id: id(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    /** The API client whose token asked, if one did: only that client (or that person's session) polls and downloads. */
    clientId: uuid('client_id').references(() => apiClients.id, { onDelete: 'cascade' }),
    level: varchar('level', { length: 10 }).$type<'system' | 'patient' | 'group'>().notNull(),
    groupId: uuid('group_id').references(() => patientGroups.id, { onDelete: 'set null' }),
    types: text('types').array().notNull(),
    since: at('since'),
    /** The kick-off request's URL, echoed in the manifest. */
    request: text('request').notNull(),
    status: varchar('status', { length: 12 }).$type<'in-progress' | 'complete' | 'failed' | 'cancelled'>().notNull().default('in-progress'),
    /** What the status answer's X-Progress says while it runs. */
    progress: varchar('progress', { length: 100 }),
    /** The moment the data is as of (the manifest's transactionTime): the kick-off. */
    transactionTime: at('transaction_time').notNull(),
    output: jsonb('output').$type<TBulkExportFile[]>().notNull().default([]),
    patientCount: integer('patient_count'),
    error: text('error'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Touched by the run as it goes: a running export whose heartbeat stopped (the process ended) is failed by the sweep. */
    heartbeatAt: at('heartbeat_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
    /** When its files are removed; a running one's is set when it ends. */
    expiresAt: at('expires_at'),
  },
  (t) => [index('bulk_exports_requested_by_idx').on(t.requestedBy), index('bulk_exports_expires_idx').on(t.expiresAt)],
);
