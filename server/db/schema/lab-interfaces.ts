import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { HL7_ACK_CODES, LAB_INBOX_STATUSES } from '#domain/lab-interfaces';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { patients } from './clinical.ts';

/** One report (OBR group) of a message: its placer number and test as the lab sent them, and the order it went to. */
export interface TInboundGroup {
  placerNumber: string | null;
  testName: string;
  observations: number;
  orderId: string | null;
}

/**
 * Every message a lab's interface sent (issue 54; docs/decisions/lab-interfaces.md), kept whole:
 * its bytes sealed in the object store as attachments are (`objectKey`), its place (filed,
 * waiting for a person, filed or rejected by one, refused), and the acknowledgement it was sent,
 * so the same message sent again gets the same answer and is filed once. Never deleted.
 */
export const labInboundMessages = pgTable(
  'lab_inbound_messages',
  {
    id: id(),
    receivedAt: at('received_at').notNull(),
    channel: varchar('channel', { length: 10, enum: ['hl7', 'fhir'] }).notNull(),
    /** MSH-3 and MSH-4 (for FHIR, the API client): who sent it, as the message says. */
    sendingApplication: varchar('sending_application', { length: 200 }).notNull(),
    sendingFacility: varchar('sending_facility', { length: 200 }).notNull(),
    /** MSH-10: the sender's id of the message; the same id from the same sender is the same message. */
    controlId: varchar('control_id', { length: 200 }).notNull(),
    messageType: varchar('message_type', { length: 30 }).notNull(),
    objectKey: varchar('object_key', { length: 200 }).notNull(),
    bytes: integer('bytes').notNull(),
    status: varchar('status', { length: 10, enum: LAB_INBOX_STATUSES }).notNull(),
    problem: text('problem'),
    ackCode: varchar('ack_code', { length: 2, enum: HL7_ACK_CODES }).notNull(),
    /** The acknowledgement as sent, sent again for a repeat. */
    ack: text('ack'),
    /** The record it was filed to (by matching, or by a person). */
    patientId: uuid('patient_id').references(() => patients.id),
    /** The patient as the message names her (PID-5, PID-7): what a person matching it compares. */
    messagePatient: varchar('message_patient', { length: 200 }),
    messageBirthDate: varchar('message_birth_date', { length: 10 }),
    groups: jsonb('groups').notNull().default([]).$type<TInboundGroup[]>(),
    resolvedAt: at('resolved_at'),
    /** Why a person rejected it. */
    resolution: text('resolution'),
    resolvedById: uuid('resolved_by_id').references(() => users.id),
    ...timestamps(),
  },
  (t) => [
    // A repeat is the same sender's same control id; refused messages are not matched against (they were never filed).
    uniqueIndex('lab_inbound_messages_control_key')
      .on(t.channel, t.sendingApplication, t.sendingFacility, t.controlId)
      .where(sql`${t.status} <> 'refused'`),
    // The queue: what waits, oldest first.
    index('lab_inbound_messages_waiting_idx')
      .on(t.receivedAt, t.id)
      .where(sql`${t.status} = 'unmatched'`),
    index('lab_inbound_messages_all_idx').on(t.receivedAt, t.id),
  ],
);
