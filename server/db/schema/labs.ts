import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { LAB_FLAGS, LAB_SEXES } from '#domain/lab-flags';
import { LAB_FLAG_SOURCES, LAB_VALUE_KINDS } from '#domain/labs';
import { LAB_ORDER_CONTROLS, LAB_ORDER_MESSAGE_TYPES, LAB_RESULT_SOURCES, LAB_RESULT_STATUSES, LAB_SEND_STATUSES } from '#domain/lab-interfaces';
import { labInboundMessages } from './lab-interfaces.ts';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { labOrders } from './clinical.ts';

/**
 * The lab catalogue and results (issue 30; docs/decisions/labs.md). A test (or panel) holds its
 * analytes in order; an analyte its reference ranges by sex and age band; an order's results are
 * one row per analyte, each with the range that applied copied in, so a later catalogue change
 * never rewrites what a clinician was shown.
 */
export const labTests = pgTable(
  'lab_tests',
  {
    id: id(),
    name: varchar('name', { length: 200 }).notNull(),
    loinc: varchar('loinc', { length: 20 }),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex('lab_tests_name_key').on(sql`lower(${t.name})`)],
);

export const labAnalytes = pgTable(
  'lab_analytes',
  {
    id: id(),
    testId: uuid('test_id')
      .notNull()
      .references(() => labTests.id),
    position: smallint('position').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    loinc: varchar('loinc', { length: 20 }),
    unit: varchar('unit', { length: 30 }),
    kind: varchar('kind', { length: 10, enum: LAB_VALUE_KINDS }).notNull(),
    /** Taken out of the test (its results keep pointing here); an active one has a position. */
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [index('lab_analytes_test_idx').on(t.testId, t.position)],
);

export const labRanges = pgTable(
  'lab_ranges',
  {
    id: id(),
    analyteId: uuid('analyte_id')
      .notNull()
      .references(() => labAnalytes.id),
    sex: varchar('sex', { length: 10, enum: LAB_SEXES }),
    ageFrom: integer('age_from'),
    ageTo: integer('age_to'),
    low: doublePrecision('low'),
    high: doublePrecision('high'),
    criticalLow: doublePrecision('critical_low'),
    criticalHigh: doublePrecision('critical_high'),
  },
  (t) => [index('lab_ranges_analyte_idx').on(t.analyteId)],
);

export const labResults = pgTable(
  'lab_results',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => labOrders.id),
    position: smallint('position').notNull(),
    analyteId: uuid('analyte_id').references(() => labAnalytes.id),
    name: varchar('name', { length: 100 }).notNull(),
    valueNumeric: doublePrecision('value_numeric'),
    valueText: varchar('value_text', { length: 500 }),
    unit: varchar('unit', { length: 30 }),
    refLow: doublePrecision('ref_low'),
    refHigh: doublePrecision('ref_high'),
    criticalLow: doublePrecision('critical_low'),
    criticalHigh: doublePrecision('critical_high'),
    flag: varchar('flag', { length: 2, enum: LAB_FLAGS }),
    flagSource: varchar('flag_source', { length: 10, enum: LAB_FLAG_SOURCES }),
    /** Who typed it; null for a result a lab's interface sent (`source`, and the message it came in). */
    enteredById: uuid('entered_by_id').references(() => users.id),
    source: varchar('source', { length: 10, enum: LAB_RESULT_SOURCES }).notNull().default('typed'),
    /** The lab's standing of the value (preliminary, final, corrected); typed results are final. */
    resultStatus: varchar('result_status', { length: 12, enum: LAB_RESULT_STATUSES }).notNull().default('final'),
    inboundMessageId: uuid('inbound_message_id').references(() => labInboundMessages.id),
    enteredAt: at('entered_at').notNull(),
    correctedAt: at('corrected_at'),
  },
  (t) => [
    uniqueIndex('lab_results_order_position_key').on(t.orderId, t.position),
    // A patient's trend for one analyte goes through the order (patient) and this.
    index('lab_results_analyte_idx').on(t.analyteId, t.orderId),
  ],
);

/** A correction of a result: the value and flag before, after, who and why (as a note keeps its revisions). */
export const labResultRevisions = pgTable(
  'lab_result_revisions',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => labOrders.id),
    resultId: uuid('result_id').references(() => labResults.id),
    resultName: varchar('result_name', { length: 100 }).notNull(),
    at: at('at').notNull(),
    /** Who changed it; null when a lab's interface did (`source`, `sourceName`). */
    actorId: uuid('actor_id').references(() => users.id),
    source: varchar('source', { length: 10, enum: LAB_RESULT_SOURCES }).notNull().default('typed'),
    /** The sending lab as its messages name it (MSH-3 and MSH-4), for a change an interface made. */
    sourceName: varchar('source_name', { length: 200 }),
    /** A value as shown, or a whole corrected report text, or the report files' names (issue 47): text, as long as the report. */
    valueBefore: text('value_before'),
    valueAfter: text('value_after'),
    flagBefore: varchar('flag_before', { length: 2, enum: LAB_FLAGS }),
    flagAfter: varchar('flag_after', { length: 2, enum: LAB_FLAGS }),
    reason: text('reason'),
  },
  (t) => [index('lab_result_revisions_order_idx').on(t.orderId, t.at)],
);

/**
 * A critical result's alert: raised with the results, acknowledged by the ordering provider (or
 * a reviewer of any), escalated once to the admins when nobody did in time. `escalatedAt` is set
 * by the claim that sends the escalation, so it is sent once whatever runs the job.
 */
export const labCriticalAlerts = pgTable(
  'lab_critical_alerts',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => labOrders.id),
    raisedAt: at('raised_at').notNull(),
    acknowledgedAt: at('acknowledged_at'),
    acknowledgedById: uuid('acknowledged_by_id').references(() => users.id),
    escalatedAt: at('escalated_at'),
    ...timestamps(),
  },
  (t) => [
    // At most one open alert per order.
    uniqueIndex('lab_critical_alerts_open_key')
      .on(t.orderId)
      .where(sql`${t.acknowledgedAt} is null`),
    // The escalation job's scan: open and not yet escalated, oldest first.
    index('lab_critical_alerts_due_idx')
      .on(t.raisedAt)
      .where(sql`${t.acknowledgedAt} is null and ${t.escalatedAt} is null`),
  ],
);

/** A lab the clinic sends orders to over MLLP (issue 54): where, which message, and as whom it is addressed. */
export const labConnections = pgTable('lab_connections', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  host: varchar('host', { length: 255 }).notNull(),
  port: integer('port').notNull(),
  messageType: varchar('message_type', { length: 10, enum: LAB_ORDER_MESSAGE_TYPES }).notNull(),
  receivingApplication: varchar('receiving_application', { length: 100 }).notNull().default(''),
  receivingFacility: varchar('receiving_facility', { length: 100 }).notNull().default(''),
  isActive: boolean('is_active').notNull().default(true),
  ...timestamps(),
});

/** The lab's code for a test of the clinic's catalogue: only tests with one are sent to it. */
export const labTestCodes = pgTable(
  'lab_test_codes',
  {
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => labConnections.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => labTests.id),
    code: varchar('code', { length: 50 }).notNull(),
    /** Orders of the test placed from then on are sent; earlier ones stay with the clinic. */
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.testId] })],
);

/**
 * An order's send to a lab: queued when the order is placed, claimed by the sender (which moves
 * `next_attempt_at` ahead as its lease, so two instances never send it at once), acknowledged,
 * or failed with the last error. Never deleted: it is the order's record of leaving the clinic.
 */
export const labOrderSends = pgTable(
  'lab_order_sends',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => labOrders.id),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => labConnections.id),
    /** ORC-1: the order (NW), or its cancellation (CA), sent once the order is cancelled. */
    orderControl: varchar('order_control', { length: 2, enum: LAB_ORDER_CONTROLS }).notNull().default('NW'),
    status: varchar('status', { length: 12, enum: LAB_SEND_STATUSES }).notNull(),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    lastError: text('last_error'),
    /** MSH-10 of what is sent: the same on every try, so a lab that got it before knows it. */
    controlId: varchar('control_id', { length: 40 }).notNull(),
    ackCode: varchar('ack_code', { length: 2 }),
    acknowledgedAt: at('acknowledged_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('lab_order_sends_order_key').on(t.orderId, t.connectionId, t.orderControl),
    index('lab_order_sends_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('lab_order_sends_failed_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'failed'`),
  ],
);
