import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, smallint, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { APPOINTMENT_DURATIONS, DEFAULT_APPOINTMENT_DURATION } from '#domain/appointments';
import { ALLERGY_ASSESSMENTS } from '#domain/chart';
import { NOTE_REVISION_ACTIONS } from '#domain/notes';
import { LAB_FLAGS, LAB_SEXES } from '#domain/lab-flags';
import type { TSupplyOrderLine } from '#domain/supplies';
import { appointmentStatus, labOrderStatus, labPriority, noteStatus, supplyOrderStatus } from './enums.ts';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';

export const patients = pgTable(
  'patients',
  {
    id: id(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    email: varchar('email', { length: 255 }),
    phone: varchar('phone', { length: 20 }),
    address: text('address'),
    emergencyContact: varchar('emergency_contact', { length: 100 }),
    emergencyPhone: varchar('emergency_phone', { length: 20 }),
    insuranceProvider: varchar('insurance_provider', { length: 100 }),
    insuranceNumber: varchar('insurance_number', { length: 50 }),
    medicalHistory: text('medical_history'),
    allergies: text('allergies'),
    currentMedications: text('current_medications'),
    /** For the lab catalogue's reference ranges by sex (issue 30); null when the record does not say. */
    sex: varchar('sex', { length: 10, enum: LAB_SEXES }),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * Set when an admin restricts the record (issue 33): only her care team (patient_care_team)
     * and those who break the glass see it. A partial index keeps the check free for the rest.
     */
    restrictedAt: at('restricted_at'),
    restrictedBy: uuid('restricted_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Her allergy statement besides the chart's list (issue 51): 'nka' or 'nkda', by whom and when;
     * null is 'never asked'. The old free-text allergies, history and medications above stay as
     * the chart's notes from the previous record.
     */
    allergyStatement: varchar('allergy_statement', { length: 4, enum: ALLERGY_ASSESSMENTS }),
    allergyStatedAt: at('allergy_stated_at'),
    allergyStatedById: uuid('allergy_stated_by_id').references(() => users.id),
    ...timestamps(),
  },
  (t) => [
    // Search's last tier (email-only matches) filters through this trigram index. The list order,
    // the name dictionary and the other search indexes are in migration 0013, which drizzle
    // cannot express (collations, INCLUDE, a trigger): see patient-search.queries.ts.
    index('patients_email_trgm').using('gin', sql`${t.email} gin_trgm_ops`),
    // Possible-duplicate check on create.
    index('patients_identity_idx').on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.dateOfBirth),
    index('patients_restricted_idx')
      .on(t.id)
      .where(sql`${t.restrictedAt} is not null`),
  ],
);

/**
 * Appointments. No two that still hold their time (status not cancelled or no_show) may overlap
 * for the same patient, room, assigned nurse or assigned scribe: four exclusion constraints in
 * migration 0007 (drizzle cannot express them) make that a database guarantee, whatever races.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    appointmentDate: at('appointment_date').notNull(),
    duration: integer('duration').notNull().default(DEFAULT_APPOINTMENT_DURATION),
    // Kept by the database from the start and duration, so the conflict constraints and queries
    // read one column that can never disagree with them. appointment_end() is defined in 0007:
    // adding whole minutes to an instant does not depend on the time zone, so it is immutable.
    endsAt: at('ends_at')
      .notNull()
      .generatedAlwaysAs(sql`appointment_end(appointment_date, duration)`),
    appointmentType: varchar('appointment_type', { length: 100 }),
    status: appointmentStatus('status').notNull().default('scheduled'),
    reason: text('reason'),
    notes: text('notes'),
    roomNumber: varchar('room_number', { length: 20 }),
    assignedNurseId: uuid('assigned_nurse_id').references(() => users.id),
    assignedScribeId: uuid('assigned_scribe_id').references(() => users.id),
    checkedInAt: at('checked_in_at'),
    completedAt: at('completed_at'),
    /** Stamped by the cancel move (issue 34): how much notice the clinic had. Null for those cancelled before it was kept. */
    cancelledAt: at('cancelled_at'),
    // Why it was cancelled or marked no-show, when the person who did it said.
    statusReason: text('status_reason'),
    // When check-missing-notes told its staff that notes are missing, or the schedulers that the
    // visit never happened: set once, in the transaction that sends, so nobody is told twice.
    notesReminderSentAt: at('notes_reminder_sent_at'),
    missedNoticeSentAt: at('missed_notice_sent_at'),
    ...timestamps(),
  },
  (t) => [
    check('appointments_duration_allowed', sql.raw(`duration in (${APPOINTMENT_DURATIONS.join(', ')})`)),
    // Time order, and the keyset cursor of every list (appointment_date, id).
    index('appointments_date_idx').on(t.appointmentDate, t.id),
    index('appointments_patient_idx').on(t.patientId, t.appointmentDate),
    index('appointments_nurse_idx').on(t.assignedNurseId, t.appointmentDate),
    index('appointments_scribe_idx').on(t.assignedScribeId, t.appointmentDate),
    // What check-missing-notes still has to look at: small, whatever the history.
    index('appointments_notes_reminder_due_idx')
      .on(t.completedAt)
      .where(sql`status = 'completed' and notes_reminder_sent_at is null and assigned_nurse_id is not null`),
    // Reports (issue 34): a range's visits read from the index alone (migration 0023 adds
    // INCLUDE (ends_at, status, room_number, provider_id, appointment_type, cancelled_at), which
    // drizzle cannot express), and visits completed in a range, by when.
    index('appointments_report_idx').on(t.appointmentDate),
    index('appointments_completed_idx')
      .on(t.completedAt)
      .where(sql`status = 'completed'`),
    index('appointments_missed_notice_due_idx')
      .on(t.endsAt)
      .where(sql`status = 'scheduled' and missed_notice_sent_at is null`),
  ],
);

export const patientNotes = pgTable(
  'patient_notes',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    noteType: varchar('note_type', { length: 100 }).notNull(),
    content: text('content').notNull(),
    attachments: jsonb('attachments').notNull().default([]).$type<string[]>(),
    status: noteStatus('status').notNull().default('draft'),
    scribeId: uuid('scribe_id').references(() => users.id),
    reviewedAt: at('reviewed_at'),
    finalizedAt: at('finalized_at'),
    submittedToAdminAt: at('submitted_to_admin_at'),
    /** When an admin last amended the finalized note (docs/decisions/notes.md); its revisions keep every version. */
    amendedAt: at('amended_at'),
    ...timestamps(),
  },
  (t) => [
    index('patient_notes_patient_idx').on(t.patientId, t.status),
    // The notes list's order and keyset cursor: newest change first.
    index('patient_notes_list_idx').on(t.updatedAt, t.id),
    index('patient_notes_status_idx').on(t.status, t.updatedAt),
    index('patient_notes_author_idx').on(t.authorId),
  ],
);

export const labOrders = pgTable(
  'lab_orders',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id').references(() => users.id),
    orderName: varchar('order_name', { length: 200 }).notNull(),
    description: text('description'),
    status: labOrderStatus('status').notNull().default('ordered'),
    orderedAt: at('ordered_at').notNull().defaultNow(),
    expectedAt: at('expected_at'),
    receivedAt: at('received_at'),
    /** When and by whom the specimen was marked collected (the move to pending; issue 50). */
    collectedAt: at('collected_at'),
    collectedById: uuid('collected_by_id').references(() => users.id),
    results: text('results'),
    attachments: jsonb('attachments').notNull().default([]).$type<string[]>(),
    isUrgent: boolean('is_urgent').notNull().default(false),
    // Issue 30: the catalogue's test (null for one ordered as free text), its priority (isUrgent
    // follows it), the clinic day results are expected, why it was cancelled, and review.
    testId: uuid('test_id'),
    priority: labPriority('priority').notNull().default('routine'),
    expectedOn: date('expected_on', { mode: 'string' }),
    statusReason: text('status_reason'),
    reviewedAt: at('reviewed_at'),
    reviewedById: uuid('reviewed_by_id').references(() => users.id),
    /** The first review, kept when a correction clears `reviewed_at` (issue 34: a correction does not move the turnaround). */
    firstReviewedAt: at('first_reviewed_at'),
    /** The worst flag of its results, and its rank (2 critical, 1 abnormal, 0 else): the review queue's order. */
    worstFlag: varchar('worst_flag', { length: 2, enum: LAB_FLAGS }),
    flagRank: smallint('flag_rank').notNull().default(0),
    /** The one overdue notice was sent (claimed by the job, so never twice). */
    overdueNoticeAt: at('overdue_notice_at'),
    /** The placer order number a lab sends back (ORC-2 / OBR-2, shown as L000123): how its results find the order (issue 54). */
    placerNumber: integer('placer_number').notNull().generatedByDefaultAsIdentity(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('lab_orders_placer_number_key').on(t.placerNumber),
    index('lab_orders_patient_idx').on(t.patientId, t.orderedAt),
    index('lab_orders_status_idx').on(t.status),
    // Outstanding: most urgent, then oldest.
    index('lab_orders_outstanding_idx')
      .on(t.priority.desc(), t.orderedAt, t.id)
      .where(sql`${t.status} in ('ordered', 'pending')`),
    // Results to review: critical, then abnormal, then oldest; one provider's, or everyone's.
    index('lab_orders_review_idx')
      .on(t.providerId, t.flagRank.desc(), t.receivedAt, t.id)
      .where(sql`${t.status} = 'received' and ${t.reviewedAt} is null`),
    index('lab_orders_review_all_idx')
      .on(t.flagRank.desc(), t.receivedAt, t.id)
      .where(sql`${t.status} = 'received' and ${t.reviewedAt} is null`),
    index('lab_orders_all_idx').on(t.orderedAt, t.id),
    // Reports (issue 34): results in, and first reviews, in a range.
    index('lab_orders_received_idx')
      .on(t.receivedAt)
      .where(sql`${t.receivedAt} is not null`),
    index('lab_orders_first_reviewed_idx')
      .on(t.firstReviewedAt)
      .where(sql`${t.firstReviewedAt} is not null`),
  ],
);

/**
 * Supply orders (spec section 4; issue 31, docs/decisions/supplies.md). `items` holds the lines
 * as the server wrote them (the catalogue's name, unit and price when ordered, and what came at
 * pickup); `total_amount` is their sum in cents, computed by the server.
 */
export const supplyOrders = pgTable(
  'supply_orders',
  {
    id: id(),
    orderNumber: varchar('order_number', { length: 50 }).notNull().unique(),
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => users.id),
    requestedById: uuid('requested_by_id')
      .notNull()
      .references(() => users.id),
    items: jsonb('items').notNull().$type<TSupplyOrderLine[]>(),
    totalAmount: integer('total_amount').notNull().default(0),
    status: supplyOrderStatus('status').notNull().default('ordered'),
    statusReason: text('status_reason'),
    orderedAt: at('ordered_at').notNull().defaultNow(),
    processingAt: at('processing_at'),
    readyAt: at('ready_at'),
    pickedUpAt: at('picked_up_at'),
    pickedUpById: uuid('picked_up_by_id').references(() => users.id),
    notes: text('notes'),
    ...timestamps(),
  },
  (t) => [
    index('supply_orders_status_idx').on(t.status),
    // Open orders oldest first; done and all newest first; a supplier's own.
    index('supply_orders_open_idx')
      .on(t.orderedAt, t.id)
      .where(sql`${t.status} in ('ordered', 'processing', 'ready_for_pickup')`),
    index('supply_orders_all_idx').on(t.orderedAt, t.id),
    index('supply_orders_supplier_idx').on(t.supplierId, t.orderedAt, t.id),
  ],
);

/**
 * Every change of a note, in the same transaction as the change: who, when, which move, and
 * the type, text and attachments before and after (null where that part did not change). The
 * text of a note is never lost: an amendment keeps the finalized text here.
 */
export const noteRevisions = pgTable(
  'note_revisions',
  {
    id: id(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => patientNotes.id),
    at: at('at').notNull(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    action: varchar('action', { length: 20, enum: NOTE_REVISION_ACTIONS }).notNull(),
    fromStatus: noteStatus('from_status'),
    toStatus: noteStatus('to_status'),
    noteTypeBefore: varchar('note_type_before', { length: 100 }),
    noteTypeAfter: varchar('note_type_after', { length: 100 }),
    contentBefore: text('content_before'),
    contentAfter: text('content_after'),
    attachmentsBefore: jsonb('attachments_before').$type<string[]>(),
    attachmentsAfter: jsonb('attachments_after').$type<string[]>(),
    reason: varchar('reason', { length: 500 }),
  },
  (t) => [
    index('note_revisions_note_idx').on(t.noteId, t.at),
    // Reports (issue 34): the moves of a range, and the amendments, by time alone.
    index('note_revisions_moves_idx')
      .on(t.at)
      .where(sql`${t.action} = 'created' or (${t.action} = 'moved' and ${t.toStatus} in ('reviewed_by_scribe', 'finalized'))`),
    index('note_revisions_amended_idx')
      .on(t.at)
      .where(sql`${t.action} = 'amended'`),
  ],
);

/**
 * Each note's milestones for the reports (issue 34; docs/decisions/reports.md), kept by the
 * database from `note_revisions` as they are written (triggers of migration 0023): its first
 * draft, the first move into each later status, and the visit it is about with that visit's end.
 * A copy of what the revisions record, never a clock of its own: an edit or an amendment is not
 * a move and changes nothing here. It lets a year of a network's notes be timed in one scan.
 */
export const noteMilestones = pgTable(
  'note_milestones',
  {
    noteId: uuid('note_id')
      .primaryKey()
      .references(() => patientNotes.id),
    authorId: uuid('author_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    /** The visit the note is about: her patient's latest begun visit with the author as its nurse, begun within 7 days before the draft. */
    visitId: uuid('visit_id'),
    visitEndedAt: at('visit_ended_at'),
    draftedAt: at('drafted_at'),
    submittedAt: at('submitted_at'),
    reviewedAt: at('reviewed_at'),
    finalizedAt: at('finalized_at'),
  },
  (t) => [
    index('note_milestones_visit_idx')
      .on(t.visitId)
      .where(sql`${t.visitId} is not null`),
    index('note_milestones_drafted_idx')
      .on(t.draftedAt)
      .where(sql`${t.draftedAt} is not null`),
    index('note_milestones_submitted_idx')
      .on(t.submittedAt)
      .where(sql`${t.submittedAt} is not null`),
    index('note_milestones_reviewed_idx')
      .on(t.reviewedAt)
      .where(sql`${t.reviewedAt} is not null`),
    index('note_milestones_finalized_idx')
      .on(t.finalizedAt)
      .where(sql`${t.finalizedAt} is not null`),
  ],
);
