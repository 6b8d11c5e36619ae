import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import {
  ALLERGY_CATEGORIES,
  ALLERGY_CRITICALITIES,
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
  ALLERGY_TYPES,
  CHART_ENTRY_STATES,
  CHART_LISTS,
  MEDICATION_ROUTES,
  MEDICATION_SOURCES,
  MEDICATION_STATUSES,
  PROBLEM_STATUSES,
  PROBLEM_VERIFICATIONS,
  SUBSTANCE_KINDS,
} from '#domain/chart';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { appointments, patients } from './clinical.ts';

/**
 * The clinical chart (issue 51; docs/decisions/clinical-chart.md). Each list's rows carry who
 * wrote them and where they stand (a scribe's draft waits for a nurse's confirmation), and a
 * version that a change must name; every change writes a chart_revisions row with the
 * entry's before and after. No row is ever deleted: a mistake is entered-in-error.
 */
const entryColumns = () => ({
  patientId: uuid('patient_id')
    .notNull()
    .references(() => patients.id),
  state: varchar('state', { length: 10, enum: CHART_ENTRY_STATES }).notNull(),
  version: integer('version').notNull().default(1),
  recordedAt: at('recorded_at').notNull(),
  recordedById: uuid('recorded_by_id').references(() => users.id),
  confirmedAt: at('confirmed_at'),
  confirmedById: uuid('confirmed_by_id').references(() => users.id),
  note: text('note'),
  ...timestamps(),
});

/** The formulary the chart and prescriptions share: a shipped starter list, the clinic's own items, an RxNorm import. */
export const formularyItems = pgTable(
  'formulary_items',
  {
    id: id(),
    /** 'amoxicillin 500 mg capsule': what a prescriber picks, searched by its words. */
    name: varchar('name', { length: 300 }).notNull(),
    /** Lower-case ingredient names: what an allergy to an ingredient or a class is checked against. */
    ingredients: text('ingredients').array().notNull(),
    strength: varchar('strength', { length: 100 }),
    doseForm: varchar('dose_form', { length: 60 }),
    route: varchar('route', { length: 20, enum: MEDICATION_ROUTES }),
    rxcui: varchar('rxcui', { length: 20 }),
    atc: varchar('atc', { length: 10 }),
    /** A controlled substance's US DEA schedule. */
    schedule: varchar('schedule', { length: 4 }),
    /** The most a day may come to (the dose check), in `max_daily_dose_unit`; none where no ceiling is set. */
    maxDailyDose: doublePrecision('max_daily_dose'),
    maxDailyDoseUnit: varchar('max_daily_dose_unit', { length: 20 }),
    /** Brand names it is known by, lower case: a prescriber searches by them too. */
    brandNames: text('brand_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    source: varchar('source', { length: 10, enum: ['starter', 'clinic', 'rxnorm'] }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('formulary_items_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('formulary_items_rxcui_key')
      .on(t.rxcui)
      .where(sql`${t.rxcui} is not null`),
    index('formulary_items_name_trgm').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // A free-text medication's words looked up as ingredients (the prescription checks).
    index('formulary_items_ingredients_idx').using('gin', t.ingredients),
  ],
);

/** The problem list's codes: the shipped ICD-10-CM starter list and the clinic's own. */
export const conditionCodes = pgTable(
  'condition_codes',
  {
    code: varchar('code', { length: 20 }).primaryKey(),
    title: varchar('title', { length: 300 }).notNull(),
    source: varchar('source', { length: 10, enum: ['icd10cm', 'clinic'] }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('condition_codes_title_trgm').using('gin', sql`lower(${t.title}) gin_trgm_ops`)],
);

export const patientAllergies = pgTable(
  'patient_allergies',
  {
    id: id(),
    substanceKind: varchar('substance_kind', { length: 12, enum: SUBSTANCE_KINDS }).notNull(),
    substanceCode: varchar('substance_code', { length: 200 }),
    substanceName: varchar('substance_name', { length: 200 }).notNull(),
    type: varchar('type', { length: 12, enum: ALLERGY_TYPES }).notNull(),
    category: varchar('category', { length: 12, enum: ALLERGY_CATEGORIES }).notNull(),
    reactions: text('reactions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    severity: varchar('severity', { length: 10, enum: ALLERGY_SEVERITIES }),
    criticality: varchar('criticality', { length: 20, enum: ALLERGY_CRITICALITIES }).notNull(),
    onset: date('onset', { mode: 'string' }),
    status: varchar('status', { length: 20, enum: ALLERGY_STATUSES }).notNull(),
    ...entryColumns(),
  },
  (t) => [index('patient_allergies_patient_idx').on(t.patientId)],
);

export const patientProblems = pgTable(
  'patient_problems',
  {
    id: id(),
    code: varchar('code', { length: 20 }),
    name: varchar('name', { length: 200 }).notNull(),
    clinicalStatus: varchar('clinical_status', { length: 12, enum: PROBLEM_STATUSES }).notNull(),
    verification: varchar('verification', { length: 20, enum: PROBLEM_VERIFICATIONS }).notNull(),
    onset: date('onset', { mode: 'string' }),
    abatement: date('abatement', { mode: 'string' }),
    ...entryColumns(),
  },
  (t) => [index('patient_problems_patient_idx').on(t.patientId)],
);

export const patientMedications = pgTable(
  'patient_medications',
  {
    id: id(),
    formularyId: uuid('formulary_id').references(() => formularyItems.id),
    name: varchar('name', { length: 200 }).notNull(),
    dose: varchar('dose', { length: 100 }),
    route: varchar('route', { length: 20, enum: MEDICATION_ROUTES }),
    frequency: varchar('frequency', { length: 100 }),
    start: date('start', { mode: 'string' }),
    stop: date('stop', { mode: 'string' }),
    status: varchar('status', { length: 20, enum: MEDICATION_STATUSES }).notNull(),
    stopReason: text('stop_reason'),
    source: varchar('source', { length: 20, enum: MEDICATION_SOURCES }).notNull(),
    ...entryColumns(),
  },
  (t) => [index('patient_medications_patient_idx').on(t.patientId)],
);

/** One set of vital signs, each in its canonical unit (domain/vital-signs.ts); BMI is computed when read. */
export const vitalSigns = pgTable(
  'vital_signs',
  {
    id: id(),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    takenAt: at('taken_at').notNull(),
    systolic: doublePrecision('systolic'),
    diastolic: doublePrecision('diastolic'),
    heartRate: doublePrecision('heart_rate'),
    respiratoryRate: doublePrecision('respiratory_rate'),
    temperature: doublePrecision('temperature'),
    spo2: doublePrecision('spo2'),
    weight: doublePrecision('weight'),
    height: doublePrecision('height'),
    pain: doublePrecision('pain'),
    status: varchar('status', { length: 20, enum: ['final', 'entered_in_error'] }).notNull(),
    ...entryColumns(),
  },
  // A patient's sets newest first: the chart's latest and each trend read this index's range.
  (t) => [index('vital_signs_patient_idx').on(t.patientId, t.takenAt.desc())],
);

/** Every change of the chart, with what it was before and after: the lists' history, never rewritten. */
export const chartRevisions = pgTable(
  'chart_revisions',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    list: varchar('list', { length: 12, enum: CHART_LISTS }).notNull(),
    entryId: uuid('entry_id'),
    action: varchar('action', { length: 20, enum: ['created', 'updated', 'confirmed', 'entered_in_error', 'assessed'] }).notNull(),
    at: at('at').notNull(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: text('reason'),
  },
  (t) => [index('chart_revisions_patient_idx').on(t.patientId, t.at), index('chart_revisions_entry_idx').on(t.entryId, t.at)],
);
