import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '#domain/appointments';
import type { TAuditEntityType, TChangeAction } from '#domain/audit';
import { LAB_FLAGS, LAB_SEXES } from '#domain/lab-flags';
import { LAB_RESULT_STATUSES } from '#domain/lab-interfaces';
import { LAB_ORDER_STATUSES } from '#domain/orders';
import { LAB_PRIORITIES } from '#domain/labs';
import { ROLES } from '#domain/roles';
import {
  ALLERGY_ASSESSMENTS,
  ALLERGY_CATEGORIES,
  ALLERGY_CRITICALITIES,
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
  ALLERGY_TYPES,
  CHART_ENTRY_STATES,
  MEDICATION_ROUTES,
  MEDICATION_SOURCES,
  MEDICATION_STATUSES,
  PROBLEM_STATUSES,
  PROBLEM_VERIFICATIONS,
} from '#domain/chart';
import { VITAL_SIGNS, VITALS_STATUSES, type TVitalSign } from '#domain/vital-signs';
import { PRESCRIPTION_STATUSES } from '#domain/prescription-statuses';
import { ZPrescription } from '#domain/prescriptions';
import type { Queryable } from '../../db/database.ts';
import { rowDay, rowId, rowsOf } from '../../db/typed-rows.ts';
import { isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { cursorInstantText } from '../../db/instant-text.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/**
 * The rows behind each FHIR resource, read from the app's own tables in the reader's scope (no
 * second store). Every query takes `where`, built from the search's parameters, and a scope
 * condition from ReadScope, so a record she may not see in the app is not there here either.
 * Pages are keysets: by id, or by time then id for appointments and visits.
 */

export interface TPage<R> {
  rows: R[];
  nextCursor: string | null;
}

const ZIdCursor = z.tuple([ZCursorUuid]);
const ZTimeCursor = z.tuple([ZCursorInstant, ZCursorUuid]);

/** A page in id order: `where` on the alias `t`, from the cursor on. */
async function byId<S extends z.ZodType<{ id: string }>>(
  q: Queryable,
  row: S,
  select: SQL,
  where: SQL,
  limit: number,
  cursor: string | null,
): Promise<TPage<z.output<S>>> {
  const from = cursor ? sql`and t.id > ${decodeCursor(cursor, ZIdCursor)[0]}::uuid` : sql``;
  const rows = await rowsOf(q, row, sql`${select} where ${where} ${from} order by t.id limit ${limit + 1}`);
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.id]);
  return { rows: page, nextCursor };
}

export const idIn = (column: SQL, ids: readonly string[]) => sql`${column} = any(${`{${ids.join(',')}}`}::uuid[])`;

// Patients ------------------------------------------------------------------------------------

const ZPatientRow = z.object({
  id: rowId,
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: rowDay.nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  emergencyPhone: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  insuranceNumber: z.string().nullable(),
  allergies: z.string().nullable(),
  sex: z.enum(LAB_SEXES).nullable(),
  isActive: z.boolean(),
  updatedAt: z.string(),
});
export type TPatientRow = z.infer<typeof ZPatientRow>;

const PATIENT_SELECT = sql`select t.id, t.first_name as "firstName", t.last_name as "lastName", t.date_of_birth::text as "dateOfBirth",
  t.email, t.phone, t.address, t.emergency_contact as "emergencyContact", t.emergency_phone as "emergencyPhone",
  t.insurance_provider as "insuranceProvider", t.insurance_number as "insuranceNumber", t.allergies, t.sex,
  t.is_active as "isActive", ${isoText(sql`t.updated_at`)} as "updatedAt" from patients t`;

export const patientsWhere = (q: Queryable, where: SQL, scope: ReadScope) =>
  rowsOf(q, ZPatientRow, sql`${PATIENT_SELECT} where ${where} and ${scope.patientRowSeen(sql`t`)}`);

/** Her patients, a page at a time; the inactive too when `withInactive` (a search naming them by id or record number). */
export const patientPage = (q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null, withInactive = false) =>
  byId(q, ZPatientRow, PATIENT_SELECT, sql`${withInactive ? sql`true` : sql`t.is_active`} and ${where} and ${scope.patientRowSeen(sql`t`)}`, limit, cursor);

// Staff and the clinic ------------------------------------------------------------------------

const ZStaffRow = z.object({
  id: rowId,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  /** Her NPI, where she was ever granted prescribing rights (prescriber_rights, one row per user). */
  npi: z.string().nullable(),
  updatedAt: z.string(),
});
export type TStaffRow = z.infer<typeof ZStaffRow>;

/** A staff account's NPI, on `users t`. */
export const STAFF_NPI = sql`(select pr.npi from prescriber_rights pr where pr.user_id = t.id)`;

const STAFF_SELECT = sql`select t.id, t.first_name as "firstName", t.last_name as "lastName", t.email, t.role, t.is_active as "isActive",
  ${STAFF_NPI} as npi, ${isoText(sql`t.updated_at`)} as "updatedAt" from users t`;

export const staffPage = (q: Queryable, where: SQL, limit: number, cursor: string | null) => byId(q, ZStaffRow, STAFF_SELECT, where, limit, cursor);

// Appointments and visits ---------------------------------------------------------------------

const ZAppointmentRow = z.object({
  id: rowId,
  /** The visit's patient, for its audit row: never sent where `patientId` is null. */
  subjectId: rowId,
  /** Null where the reader may not name the visit's patient (spec section 6, as the app's appointments): then only her 'Patient #' label goes. */
  patientId: rowId.nullable(),
  providerId: rowId,
  start: z.string(),
  end: z.string(),
  duration: z.number(),
  appointmentType: z.string().nullable(),
  status: z.enum(APPOINTMENT_STATUSES),
  reason: z.string().nullable(),
  notes: z.string().nullable(),
  roomNumber: z.string().nullable(),
  /** Only for a reader who sees staff assignments (ReadScope.staffNames). */
  nurseId: rowId.nullable(),
  scribeId: rowId.nullable(),
  checkedInAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  statusReason: z.string().nullable(),
  updatedAt: z.string(),
  sortKey: z.string(),
});
export type TAppointmentRow = z.infer<typeof ZAppointmentRow>;

/**
 * Whether the reader may name the visit's patient: the app's own rule (`ReadScope.appointmentPatientNames`,
 * written on the table's name), asked of this row.
 */
export const appointmentPatientNamed = (scope: ReadScope) =>
  sql`exists (select 1 from appointments where appointments.id = t.id and ${scope.appointmentPatientNames})`;

const appointmentSelect = (scope: ReadScope) => sql`select t.id, t.patient_id as "subjectId",
  case when ${appointmentPatientNamed(scope)} then t.patient_id end as "patientId",
  t.provider_id as "providerId",
  ${isoText(sql`t.appointment_date`)} as start, ${isoText(sql`t.ends_at`)} as "end", t.duration, t.appointment_type as "appointmentType",
  t.status, t.reason, t.notes, t.room_number as "roomNumber",
  ${scope.staffNames ? sql`t.assigned_nurse_id` : sql`null::uuid`} as "nurseId", ${scope.staffNames ? sql`t.assigned_scribe_id` : sql`null::uuid`} as "scribeId",
  ${isoText(sql`t.checked_in_at`)} as "checkedInAt", ${isoText(sql`t.completed_at`)} as "completedAt", t.status_reason as "statusReason",
  ${isoText(sql`t.updated_at`)} as "updatedAt", ${cursorInstantText(sql`t.appointment_date`)} as "sortKey"
  from appointments t`;

/** Appointments (or completed visits, with `where`) in time order, from the cursor on. */
export async function appointmentPage(q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null): Promise<TPage<TAppointmentRow>> {
  const key = cursor ? decodeCursor(cursor, ZTimeCursor) : null;
  const from = key ? sql`and ${after([sql`t.appointment_date`, sql`t.id`], [sql`${key[0]}::timestamptz`, sql`${key[1]}::uuid`])}` : sql``;
  const rows = await rowsOf(
    q,
    ZAppointmentRow,
    sql`${appointmentSelect(scope)} where ${where} and ${scope.patientSeen(sql`t.patient_id`)} ${from} order by t.appointment_date, t.id limit ${limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.sortKey, r.id]);
  return { rows: page, nextCursor };
}

// Notes ---------------------------------------------------------------------------------------

const ZNoteRow = z.object({
  id: rowId,
  patientId: rowId,
  authorId: rowId,
  noteType: z.string(),
  content: z.string(),
  finalizedAt: z.string().nullable(),
  amendedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The current version's date (NOTE_DATE). */
  date: z.string(),
  /** Its amendments, oldest first: what it said before each, and when each was made. */
  amendments: z.array(z.object({ at: z.string(), contentBefore: z.string().nullable(), noteTypeBefore: z.string().nullable() })),
});
export type TNoteRow = z.infer<typeof ZNoteRow>;

/**
 * A finalized note's date as its current DocumentReference gives it (and `date` searches it):
 * its last amendment, else when it was finalized.
 */
export const NOTE_DATE = sql`coalesce((select max(r.at) from note_revisions r where r.note_id = patient_notes.id and r.action = 'amended'),
  patient_notes.finalized_at, patient_notes.updated_at)`;

// The notes' scope (ReadScope.notes) names `patient_notes` itself, so the table keeps its name.
const NOTE_SELECT = sql`select patient_notes.id, patient_notes.patient_id as "patientId", patient_notes.author_id as "authorId",
  patient_notes.note_type as "noteType", patient_notes.content, ${isoText(sql`patient_notes.finalized_at`)} as "finalizedAt",
  ${isoText(sql`patient_notes.amended_at`)} as "amendedAt", ${isoText(sql`patient_notes.created_at`)} as "createdAt",
  ${isoText(sql`patient_notes.updated_at`)} as "updatedAt", ${isoText(NOTE_DATE)} as date,
  coalesce((select json_agg(json_build_object('at', ${isoText(sql`r.at`)}, 'contentBefore', r.content_before, 'noteTypeBefore', r.note_type_before) order by r.at, r.id)
    from note_revisions r where r.note_id = patient_notes.id and r.action = 'amended'), '[]'::json) as amendments
  from patient_notes`;

/** Finalized notes the reader may see (the note scope, which also leaves out restricted patients she does not reach). */
export async function finalizedNotePage(q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null): Promise<TPage<TNoteRow>> {
  const from = cursor ? sql`and patient_notes.id > ${decodeCursor(cursor, ZIdCursor)[0]}::uuid` : sql``;
  const rows = await rowsOf(
    q,
    ZNoteRow,
    sql`${NOTE_SELECT} where patient_notes.status = 'finalized' and ${scope.notes} and ${where} ${from} order by patient_notes.id limit ${limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.id]);
  return { rows: page, nextCursor };
}

// Lab orders and results ----------------------------------------------------------------------

const ZLabOrderRow = z.object({
  id: rowId,
  patientId: rowId,
  providerId: rowId.nullable(),
  orderName: z.string(),
  description: z.string().nullable(),
  status: z.enum(LAB_ORDER_STATUSES),
  priority: z.enum(LAB_PRIORITIES),
  orderedAt: z.string(),
  receivedAt: z.string().nullable(),
  results: z.string().nullable(),
  statusReason: z.string().nullable(),
  loinc: z.string().nullable(),
  updatedAt: z.string(),
  /** Its results' ids in order, and the report's status: corrected if any was, else preliminary if any is, else final. */
  resultIds: z.array(rowId),
  reportStatus: z.enum(LAB_RESULT_STATUSES),
});
export type TLabOrderRow = z.infer<typeof ZLabOrderRow>;

/** An order's code: its catalogue test's LOINC (none for one ordered as free text). */
export const LAB_ORDER_LOINC = sql`(select lt.loinc from lab_tests lt where lt.id = lab_orders.test_id)`;

// The lab scope (ReadScope.labOrders) names `lab_orders` itself.
const LAB_ORDER_SELECT = sql`select lab_orders.id, lab_orders.patient_id as "patientId", lab_orders.provider_id as "providerId",
  lab_orders.order_name as "orderName", lab_orders.description, lab_orders.status, lab_orders.priority,
  ${isoText(sql`lab_orders.ordered_at`)} as "orderedAt", ${isoText(sql`lab_orders.received_at`)} as "receivedAt", lab_orders.results,
  lab_orders.status_reason as "statusReason", ${LAB_ORDER_LOINC} as loinc,
  ${isoText(sql`lab_orders.updated_at`)} as "updatedAt",
  array(select r.id from lab_results r where r.order_id = lab_orders.id order by r.position) as "resultIds",
  -- An aggregate, not EXISTS: EXISTS may be planned as a hash of every corrected result, read again for each page.
  (select case when bool_or(r.result_status = 'corrected') then 'corrected' when bool_or(r.result_status = 'preliminary') then 'preliminary' else 'final' end
    from lab_results r where r.order_id = lab_orders.id) as "reportStatus"
  from lab_orders`;

export async function labOrderPage(q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null): Promise<TPage<TLabOrderRow>> {
  const from = cursor ? sql`and lab_orders.id > ${decodeCursor(cursor, ZIdCursor)[0]}::uuid` : sql``;
  const rows = await rowsOf(q, ZLabOrderRow, sql`${LAB_ORDER_SELECT} where ${scope.labOrders} and ${where} ${from} order by lab_orders.id limit ${limit + 1}`);
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.id]);
  return { rows: page, nextCursor };
}

const ZLabResultRow = z.object({
  id: rowId,
  orderId: rowId,
  patientId: rowId,
  name: z.string(),
  loinc: z.string().nullable(),
  valueNumeric: z.number().nullable(),
  valueText: z.string().nullable(),
  unit: z.string().nullable(),
  refLow: z.number().nullable(),
  refHigh: z.number().nullable(),
  flag: z.enum(LAB_FLAGS).nullable(),
  effectiveAt: z.string(),
  enteredAt: z.string(),
  correctedAt: z.string().nullable(),
  resultStatus: z.enum(LAB_RESULT_STATUSES),
});
export type TLabResultRow = z.infer<typeof ZLabResultRow>;

/** A result's code (its analyte's LOINC, where the catalogue has one) and its effective time (when the order's results came in), on `lab_results t`. */
export const LAB_RESULT_LOINC = sql`(select a.loinc from lab_analytes a where a.id = t.analyte_id)`;
export const LAB_RESULT_EFFECTIVE = sql`coalesce(lab_orders.received_at, t.entered_at)`;

const LAB_RESULT_SELECT = sql`select t.id, t.order_id as "orderId", lab_orders.patient_id as "patientId", t.name, ${LAB_RESULT_LOINC} as loinc,
  t.value_numeric as "valueNumeric", t.value_text as "valueText", t.unit, t.ref_low as "refLow", t.ref_high as "refHigh", t.flag,
  ${isoText(LAB_RESULT_EFFECTIVE)} as "effectiveAt", ${isoText(sql`t.entered_at`)} as "enteredAt",
  ${isoText(sql`t.corrected_at`)} as "correctedAt", t.result_status as "resultStatus"
  from lab_results t join lab_orders on lab_orders.id = t.order_id`;

export const labResultPage = (q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null) =>
  byId(q, ZLabResultRow, LAB_RESULT_SELECT, sql`${scope.labOrders} and ${where}`, limit, cursor);

// The clinical chart (issue 51) ---------------------------------------------------------------

const entryMeta = {
  id: rowId,
  patientId: rowId,
  state: z.enum(CHART_ENTRY_STATES),
  recordedAt: z.string(),
  recorderId: rowId.nullable(),
  note: z.string().nullable(),
  updatedAt: z.string(),
};
// Each list's rows with their patient as `pt`, for the reader's scope; `t` is the list's own.
const metaSelect = sql`t.id, t.patient_id as "patientId", t.state, ${isoText(sql`t.recorded_at`)} as "recordedAt", t.recorded_by_id as "recorderId",
  t.note, ${isoText(sql`t.updated_at`)} as "updatedAt"`;
const seenThrough = (scope: ReadScope, where: SQL) => sql`${where} and ${scope.patientRowSeen(sql`pt`)}`;

const ZAllergyEntryRow = z.object({
  ...entryMeta,
  /** 'entry': one of her list; 'statement': her NKA / NKDA, under her own id. */
  kind: z.enum(['entry', 'statement']),
  substanceKind: z.string().nullable(),
  substanceName: z.string().nullable(),
  statement: z.enum(ALLERGY_ASSESSMENTS).nullable(),
  type: z.enum(ALLERGY_TYPES).nullable(),
  category: z.enum(ALLERGY_CATEGORIES).nullable(),
  reactions: z.array(z.string()),
  severity: z.enum(ALLERGY_SEVERITIES).nullable(),
  criticality: z.enum(ALLERGY_CRITICALITIES).nullable(),
  onset: rowDay.nullable(),
  status: z.enum(ALLERGY_STATUSES),
});
export type TAllergyEntryRow = z.infer<typeof ZAllergyEntryRow>;

// Her entries, and her statement as one more (under her own id), each with her row as `pt`.
const ALLERGY_ENTRIES = sql`select ${metaSelect}, 'entry' as kind, t.substance_kind as "substanceKind", t.substance_name as "substanceName",
    null::text as statement, t.type, t.category, t.reactions, t.severity, t.criticality, t.onset::text as onset, t.status
  from patient_allergies t join patients pt on pt.id = t.patient_id where true`;
const ALLERGY_STATEMENTS = sql`select t.id, t.id, 'confirmed', ${isoText(sql`t.allergy_stated_at`)}, t.allergy_stated_by_id, null, ${isoText(sql`t.allergy_stated_at`)},
    'statement', null, null, t.allergy_statement, null, null, '{}'::text[], null, null, null, 'active'
  from patients t join patients pt on pt.id = t.id where t.allergy_statement is not null`;

/**
 * A page of both in id order. Each kind is read in id order up to the page on its own (an index
 * scan that stops), then the two are merged: a union paged as a whole would sort every row after
 * the cursor on each page, which grew with the clinic (bench/bulk-export.ts). `where` is given
 * the patient column of each kind.
 */
export async function allergyEntryPage(
  q: Queryable,
  where: (patient: SQL) => SQL,
  scope: ReadScope,
  limit: number,
  cursor: string | null,
): Promise<TPage<TAllergyEntryRow>> {
  const after = cursor ? sql`and t.id > ${decodeCursor(cursor, ZIdCursor)[0]}::uuid` : sql``;
  const kind = (select: SQL, patient: SQL) => sql`(${select} and ${seenThrough(scope, where(patient))} ${after} order by t.id limit ${limit + 1})`;
  const rows = await rowsOf(
    q,
    ZAllergyEntryRow,
    sql`select * from (${kind(ALLERGY_ENTRIES, sql`t.patient_id`)} union all ${kind(ALLERGY_STATEMENTS, sql`t.id`)}) u order by u.id limit ${limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.id]);
  return { rows: page, nextCursor };
}

const ZProblemRow = z.object({
  ...entryMeta,
  code: z.string().nullable(),
  name: z.string(),
  clinicalStatus: z.enum(PROBLEM_STATUSES),
  verification: z.enum(PROBLEM_VERIFICATIONS),
  onset: rowDay.nullable(),
  abatement: rowDay.nullable(),
});
export type TProblemRow = z.infer<typeof ZProblemRow>;

const PROBLEM_SELECT = sql`select ${metaSelect}, t.code, t.name, t.clinical_status as "clinicalStatus", t.verification,
  t.onset::text as onset, t.abatement::text as abatement from patient_problems t join patients pt on pt.id = t.patient_id`;

export const problemPage = (q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null) =>
  byId(q, ZProblemRow, PROBLEM_SELECT, seenThrough(scope, where), limit, cursor);

/**
 * The prescription behind an entry signing put on her list (issue 52): what it ordered, for
 * those who read prescriptions (their scope, `ReadScope.prescriptions`). A draft or a discarded
 * one has no entry, and is never joined.
 */
const ZSignedStatus = z.enum(PRESCRIPTION_STATUSES).exclude(['draft', 'cancelled']);
export type TSignedPrescriptionStatus = z.infer<typeof ZSignedStatus>;
const ZEntryPrescription = ZPrescription.pick({
  statusReason: true,
  sig: true,
  quantity: true,
  quantityUnit: true,
  refills: true,
  daysSupply: true,
  substitutionAllowed: true,
  pharmacyNote: true,
  updatedAt: true,
}).extend({
  /** The sequence behind its number (prescriptionNumber writes it). */
  number: z.number().int(),
  status: ZSignedStatus,
  /** Her problem it treats, while it stands on her list (not entered in error). */
  diagnosisId: rowId.nullable(),
  prescriberId: rowId,
  signedAt: z.string(),
});

const ZMedicationRow = z.object({
  ...entryMeta,
  name: z.string(),
  rxcui: z.string().nullable(),
  dose: z.string().nullable(),
  route: z.enum(MEDICATION_ROUTES).nullable(),
  frequency: z.string().nullable(),
  start: rowDay.nullable(),
  stop: rowDay.nullable(),
  status: z.enum(MEDICATION_STATUSES),
  stopReason: z.string().nullable(),
  source: z.enum(MEDICATION_SOURCES),
  prescription: ZEntryPrescription.nullable(),
});
export type TMedicationRow = z.infer<typeof ZMedicationRow>;

const SIGNED_STATUSES = sql.join(
  ZSignedStatus.options.map((status) => sql`${status}`),
  sql`, `,
);
// The entry's prescription in the same statement (one at most: prescriptions_medication_entry_idx
// is unique), never a query per row.
const medicationSelect = (scope: ReadScope) => sql`select ${metaSelect}, t.name, f.rxcui, t.dose, t.route, t.frequency,
  t.start::text as start, t.stop::text as stop, t.status, t.stop_reason as "stopReason", t.source,
  case when p.number is null then null else json_build_object('number', p.number, 'status', p.status, 'statusReason', p.status_reason,
    'sig', p.sig, 'quantity', p.quantity, 'quantityUnit', p.quantity_unit, 'refills', p.refills, 'daysSupply', p.days_supply,
    'substitutionAllowed', p.substitution_allowed, 'pharmacyNote', p.pharmacy_note, 'diagnosisId', dx.id, 'prescriberId', p.prescriber_id,
    'signedAt', ${isoText(sql`p.signed_at`)}, 'updatedAt', ${isoText(sql`p.updated_at`)}) end as prescription
  from patient_medications t join patients pt on pt.id = t.patient_id left join formulary_items f on f.id = t.formulary_id
  left join prescriptions p on p.medication_entry_id = t.id and p.status in (${SIGNED_STATUSES}) and ${scope.prescriptions}
  left join patient_problems dx on dx.id = p.diagnosis_id and dx.patient_id = t.patient_id and dx.verification <> 'entered_in_error'`;

export const medicationPage = (q: Queryable, where: SQL, scope: ReadScope, limit: number, cursor: string | null) =>
  byId(q, ZMedicationRow, medicationSelect(scope), seenThrough(scope, where), limit, cursor);

const ZVitalsRow = z.object({
  ...entryMeta,
  takenAt: z.string(),
  status: z.enum(VITALS_STATUSES),
  ...(Object.fromEntries(VITAL_SIGNS.map((sign) => [sign, z.number().nullable()])) as Record<TVitalSign, z.ZodNullable<z.ZodNumber>>),
});
export type TVitalsRow = z.infer<typeof ZVitalsRow>;

const VITALS_SELECT = sql`select ${metaSelect}, ${isoText(sql`t.taken_at`)} as "takenAt", t.status, t.systolic, t.diastolic,
  t.heart_rate as "heartRate", t.respiratory_rate as "respiratoryRate", t.temperature, t.spo2, t.weight, t.height, t.pain
  from vital_signs t join patients pt on pt.id = t.patient_id`;

/** Sets in id order from `fromId` on (itself included: a page may end inside a set), at most `limit`. */
export const vitalsFrom = (q: Queryable, where: SQL, scope: ReadScope, fromId: string | null, limit: number) =>
  rowsOf(
    q,
    ZVitalsRow,
    sql`${VITALS_SELECT} where ${seenThrough(scope, where)} ${fromId ? sql`and t.id >= ${fromId}::uuid` : sql``} order by t.id limit ${limit}`,
  );

// The last change of a record, for its Provenance (US Core 6.1) -------------------------------

const ZChangeRow = z.object({
  id: z.string(),
  /** When it last changed (null only for a row that never says: no Provenance then). */
  at: z.string().nullable(),
  /** Who changed it; null where no one is known (a job, a row written before the trail kept it). */
  actorId: rowId.nullable(),
  /** The change's audit action, or the record's own (lab results); null where neither says. */
  action: z.string().nullable(),
});
export type TChangeRow = z.infer<typeof ZChangeRow>;

/**
 * Where a record's changes are written in the audit trail: its table (as `r`), the audit rows'
 * entity and the actions that change what its resource says, and, for a record the trail does
 * not hold (written before it, or by a seed), who the row itself names as having written it and
 * when it last changed.
 */
export interface TAuditedRecord {
  table: SQL;
  entityType: TAuditEntityType;
  actions: readonly TChangeAction[];
  recorder: SQL;
  changedAt: SQL;
}

/**
 * Each record's latest change in the audit trail (written in the same transaction as the change,
 * so it is the record's own history): when, by whom, which action. Of one transaction's rows the
 * first is taken, so a record created and moved at once reads as created. A record the trail
 * does not hold falls back on its row. Read through the trail's record index
 * (audit_events_entity_idx) alone: asking for the record's patient too had PostgreSQL combine it
 * with her index, which reads every row of hers, 20,000 reads of a busy chart for each record
 * (bench/audit-lookups.ts).
 */
export const lastAuditedChanges = (q: Queryable, record: TAuditedRecord, ids: readonly string[]) =>
  rowsOf(
    q,
    ZChangeRow,
    sql`select r.id::text as id, ${isoText(sql`coalesce(e.at, ${record.changedAt})`)} as at,
      case when e.id is null then ${record.recorder} else e.actor_id end as "actorId", e.action
    from ${record.table}
    left join lateral (
      select a.id, a.actor_id, a.at, a.action from audit_events a
      where a.entity_type = ${record.entityType}
        and a.entity_id = r.id::text and a.outcome = 'allowed' and a.action in (${sql.join(
          record.actions.map((action) => sql`${action}`),
          sql`, `,
        )})
      order by a.at desc, a.n limit 1
    ) e on true
    where ${idIn(sql`r.id`, ids)}`,
  );

/**
 * Lab results' latest change from their own rows, which carry it: who entered them (a correction
 * writes the corrector there) and when, entered or last corrected. The trail records both on the
 * order, not on the result.
 */
export const lastResultChanges = (q: Queryable, ids: readonly string[]) =>
  rowsOf(
    q,
    ZChangeRow,
    sql`select r.id::text as id, ${isoText(sql`coalesce(r.corrected_at, r.entered_at)`)} as at, r.entered_by_id as "actorId",
      case when r.corrected_at is null then 'lab.results_enter' else 'lab.results_correct' end as action
    from lab_results r where ${idIn(sql`r.id`, ids)}`,
  );

/** The clinic's settings: who last changed them, and when (the row carries both). */
export const lastClinicChange = (q: Queryable, id: string) =>
  rowsOf(
    q,
    ZChangeRow,
    sql`select ${id}::text as id, ${isoText(sql`updated_at`)} as at, updated_by as "actorId", null::text as action from clinic_settings limit 1`,
  );
