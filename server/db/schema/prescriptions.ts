import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { INTERACTION_SEVERITIES } from '#domain/interaction-pairs';
import { PRESCRIPTION_STATUSES } from '#domain/prescription-statuses';
import { REPLACE_KINDS, type TPrescriptionAlert, type TPrescriptionRevisionAction } from '#domain/prescriptions';
import { DOSE_UNITS, type TSig } from '#domain/sig';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { formularyItems, patientMedications, patientProblems } from './chart.ts';
import { appointments, patients } from './clinical.ts';

/**
 * Prescriptions (issue 52; docs/decisions/prescriptions.md). Who may sign one: a user an admin has
 * granted prescribing rights, with the credentials a printed prescription carries. One row per
 * user, changed in place and audited; revoking keeps the row (the prescriptions she signed name it).
 */
export const prescriberRights = pgTable(
  'prescriber_rights',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id),
    licenseNumber: varchar('license_number', { length: 40 }).notNull(),
    /** The state (USPS code) that issued the license. */
    licenseState: varchar('license_state', { length: 2 }).notNull(),
    npi: varchar('npi', { length: 10 }).notNull(),
    /** For controlled substances; without one she signs none. */
    deaNumber: varchar('dea_number', { length: 9 }),
    grantedAt: at('granted_at').notNull(),
    grantedById: uuid('granted_by_id').references(() => users.id),
    revokedAt: at('revoked_at'),
    revokedById: uuid('revoked_by_id').references(() => users.id),
    ...timestamps(),
  },
  (t) => [check('prescriber_rights_npi_digits', sql`${t.npi} ~ '^[0-9]{10}$'`)],
);

/**
 * A prescription: a draft until a prescriber signs it, never edited once signed (a renewal or a
 * change is a new row naming the one it replaces), never deleted. What it was written with is
 * kept as written (the drug's name and schedule, the sig) so the formulary changing later does
 * not change what was prescribed. Every change writes a prescription_revisions row.
 */
export const prescriptions = pgTable(
  'prescriptions',
  {
    id: id(),
    /** The sequence behind 'RX-000123', unique: what the printout and the pharmacy quote. */
    number: serial('number').notNull().unique(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    formularyId: uuid('formulary_id')
      .notNull()
      .references(() => formularyItems.id),
    medicationName: varchar('medication_name', { length: 300 }).notNull(),
    schedule: varchar('schedule', { length: 4 }),
    sig: jsonb('sig').$type<TSig>().notNull(),
    quantity: doublePrecision('quantity').notNull(),
    quantityUnit: varchar('quantity_unit', { length: 20, enum: DOSE_UNITS }).notNull(),
    refills: integer('refills').notNull().default(0),
    daysSupply: integer('days_supply'),
    substitutionAllowed: boolean('substitution_allowed').notNull().default(true),
    pharmacyNote: text('pharmacy_note'),
    diagnosisId: uuid('diagnosis_id').references(() => patientProblems.id),
    status: varchar('status', { length: 20, enum: PRESCRIPTION_STATUSES }).notNull(),
    statusReason: text('status_reason'),
    prescriberId: uuid('prescriber_id')
      .notNull()
      .references(() => users.id),
    preparedById: uuid('prepared_by_id')
      .notNull()
      .references(() => users.id),
    signedAt: at('signed_at'),
    signedById: uuid('signed_by_id').references(() => users.id),
    sentAt: at('sent_at'),
    /** How it left: 'print' (the one driver today; a pharmacy network's would be another). */
    sentVia: varchar('sent_via', { length: 20 }),
    printCount: integer('print_count').notNull().default(0),
    endedAt: at('ended_at'),
    endedById: uuid('ended_by_id').references(() => users.id),
    /** The checks' alerts when it was signed, with the reasons given to sign over the high ones. */
    alerts: jsonb('alerts').$type<TPrescriptionAlert[]>().notNull().default([]),
    replacesId: uuid('replaces_id').references((): AnyPgColumn => prescriptions.id),
    replaceKind: varchar('replace_kind', { length: 10, enum: REPLACE_KINDS }),
    /** The medication list's entry signing made (its status follows the prescription's end). */
    medicationEntryId: uuid('medication_entry_id').references(() => patientMedications.id),
    ...timestamps(),
  },
  (t) => [
    check('prescriptions_quantity_positive', sql`${t.quantity} > 0`),
    check('prescriptions_refills_range', sql`${t.refills} between 0 and 11`),
    index('prescriptions_patient_idx').on(t.patientId, t.createdAt.desc()),
    index('prescriptions_recent_idx').on(t.createdAt.desc(), t.id.desc()),
    // The lists: drafts waiting for a prescriber, those one prepared, those in force.
    index('prescriptions_to_sign_idx')
      .on(t.prescriberId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'draft'`),
    index('prescriptions_prepared_idx')
      .on(t.preparedById, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'draft'`),
    index('prescriptions_in_force_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} in ('signed', 'active')`),
    // A visit's count of its prescriptions, on every appointment read (the schedule's lists).
    index('prescriptions_visit_idx')
      .on(t.appointmentId)
      .where(sql`${t.appointmentId} is not null`),
    // One prescription per medication-list entry (signing makes the entry): what FHIR's
    // MedicationRequest joins on, and the rule the code keeps, written where it cannot be broken.
    uniqueIndex('prescriptions_medication_entry_idx')
      .on(t.medicationEntryId)
      .where(sql`${t.medicationEntryId} is not null`),
  ],
);

/** Every change of a prescription, with what it was before and after: its history, never rewritten. */
export const prescriptionRevisions = pgTable(
  'prescription_revisions',
  {
    id: id(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    action: varchar('action', { length: 20 }).$type<TPrescriptionRevisionAction>().notNull(),
    at: at('at').notNull(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: text('reason'),
  },
  (t) => [index('prescription_revisions_idx').on(t.prescriptionId, t.at)],
);

/**
 * The clinic's own drug–drug interaction pairs, checked beside the shipped ones (the ONC list):
 * two named groups of lower-case ingredient names (as formulary_items.ingredients holds them),
 * the alert's severity and the line a prescriber reads. Changed in place and audited; retired,
 * never deleted (prescriptions signed over its alert name it).
 */
export const clinicInteractionPairs = pgTable(
  'clinic_interaction_pairs',
  {
    id: id(),
    nameA: varchar('name_a', { length: 80 }).notNull(),
    ingredientsA: text('ingredients_a').array().notNull(),
    nameB: varchar('name_b', { length: 80 }).notNull(),
    ingredientsB: text('ingredients_b').array().notNull(),
    severity: varchar('severity', { length: 10, enum: INTERACTION_SEVERITIES }).notNull(),
    effect: varchar('effect', { length: 300 }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdById: uuid('created_by_id')
      .notNull()
      .references(() => users.id),
    ...timestamps(),
  },
  (t) => [
    check('clinic_interaction_pairs_ingredients_a', sql`cardinality(${t.ingredientsA}) > 0`),
    check('clinic_interaction_pairs_ingredients_b', sql`cardinality(${t.ingredientsB}) > 0`),
    check('clinic_interaction_pairs_severity', sql`${t.severity} in ('high', 'moderate')`),
  ],
);
