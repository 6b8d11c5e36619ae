import { sql, type SQL } from 'drizzle-orm';
import { APPOINTMENT_STATUSES, type TAppointmentStatus } from '#domain/appointments';
import type { TFhirResourceType } from '#domain/fhir';
import { invalid } from '../../http/errors.ts';
import type { Reading } from '../../scope/reader.ts';
import type { Deps } from '../../deps.ts';
import {
  codeConditions,
  codesAsked,
  dateConditions,
  fixedCode,
  inList,
  parseDayParam,
  parseToken,
  patientParam,
  stringValues,
  type TSearchBase,
} from './fhir-params.ts';
import { CHART_TYPES, observationKinds, VITALS_CURSOR, vitalObservations } from './fhir-chart-types.ts';
import { VITAL_OBSERVATION_ID } from './fhir-chart-resources.ts';
import { and, common, NO_MATCH, one, pageOf, UUID_ID, type TFhirType } from './fhir-search.ts';
import { decodeNameCursor, nameMatches, patientIdsByName } from './fhir-patient-search.ts';
import { withRevIncludes } from './fhir-provenance.ts';
import { groupType } from './fhir-group.ts';
import {
  appointmentPage,
  appointmentPatientNamed,
  finalizedNotePage,
  idIn,
  LAB_ORDER_LOINC,
  LAB_RESULT_EFFECTIVE,
  LAB_RESULT_LOINC,
  labOrderPage,
  labResultPage,
  NOTE_DATE,
  patientsWhere,
  patientPage,
  STAFF_NPI,
  staffPage,
  type TNoteRow,
} from './fhir.queries.ts';
import {
  APPOINTMENT_STATUS_TO_FHIR,
  FHIR_APPOINTMENT_STATUSES,
  CLINIC_ORGANIZATION_ID,
  LOINC,
  NOTE_CATEGORY,
  NOTE_TYPE_LOINC,
  NOTE_VERSION_ID,
  NPI_SYSTEM,
  NULL_FLAVOR,
  ORDER_CATEGORY,
  RECORD_NUMBER_SYSTEM,
  recordNumber,
  REPORT_CATEGORY,
  toAppointmentResource,
  toDiagnosticReport,
  toDocumentReference,
  toEncounterResource,
  toObservation,
  toOrganizationResource,
  toPatientResource,
  toPractitionerResource,
  toServiceRequest,
} from './fhir-resources.ts';

const timeZoneOf = (reading: Reading) => (reading.deps as Deps).settings.current().timeZone;

/** `date` (fhir-params.ts dateConditions) in the clinic's time zone. */
const dates = (reading: Reading, search: TSearchBase, column: SQL, until?: SQL) =>
  dateConditions('date', search.params.get('date'), timeZoneOf(reading), column, until);

// Patient -------------------------------------------------------------------------------------

function birthdateConditions(values: string[] | undefined): SQL[] {
  return (values ?? []).map((raw) => {
    const b = parseDayParam('birthdate', raw);
    const [first, afterLast] = [b.first, b.afterLast];
    switch (b.prefix) {
      case 'eq':
        return sql`(t.date_of_birth >= ${first}::date and t.date_of_birth < ${afterLast}::date)`;
      case 'lt':
        return sql`t.date_of_birth < ${first}::date`;
      case 'le':
        return sql`t.date_of_birth < ${afterLast}::date`;
      case 'gt':
        return sql`t.date_of_birth >= ${afterLast}::date`;
      case 'ge':
        return sql`t.date_of_birth >= ${first}::date`;
    }
  });
}

/**
 * `identifier`: the record number of a patient, or a staff account's (`[system|]urn:uuid:{id}`,
 * the row's id on `t`); with `npi` (a Practitioner's, US Core's search by NPI), also
 * `[http://hl7.org/fhir/sid/us-npi|]{npi}`. Any other identifier matches nothing.
 */
function identifierConditions(values: string[] | undefined, npi?: SQL): SQL[] {
  return (values ?? []).map((raw) => {
    const { system, code: value } = parseToken(raw);
    // `system|`: every identifier of that system (every record number, every NPI); `|value`: only
    // identifiers without a system, which this server gives none of.
    const byNpi =
      !npi || (system !== null && system !== NPI_SYSTEM) ? NO_MATCH : system !== null && value === '' ? sql`${npi} is not null` : sql`${npi} = ${value}`;
    if (system === NPI_SYSTEM) return byNpi;
    if (system === '' || (system !== null && system !== RECORD_NUMBER_SYSTEM)) return NO_MATCH;
    if (system !== null && value === '') return sql`true`;
    const id = value.startsWith('urn:uuid:') ? value.slice('urn:uuid:'.length) : null;
    const byRecord = id && recordNumber(id) === value && UUID_ID.test(id) ? sql`t.id = ${id}::uuid` : NO_MATCH;
    return system === null && npi ? sql`(${byRecord} or ${byNpi})` : byRecord;
  });
}

const GENDER_SYSTEM = 'http://hl7.org/fhir/administrative-gender';
const GENDERS = ['male', 'female', 'other', 'unknown'];
/** `gender`: the gender as served (toPatientResource: the record's sex, 'unknown' where it does not say). */
const genderConditions = (values: string[] | undefined): SQL[] =>
  codesAsked('gender', values, GENDER_SYSTEM, GENDERS).map((asked) => (asked.any ? sql`true` : inList(sql`coalesce(t.sex, 'unknown')`, asked.codes)));

const patientType: TFhirType = {
  audit: { read: 'patient.read', search: 'patient.list', entityType: 'patient' },
  async search(reading, search) {
    const { params } = search;
    const where = and([
      // Her patient column is her id: `patient` is not a Patient parameter, but a bulk export's patients apply.
      ...common(search, sql`t.id`, sql`t.id`),
      ...birthdateConditions(params.get('birthdate')),
      ...identifierConditions(params.get('identifier')),
      ...genderConditions(params.get('gender')),
    ]);
    const names = params.get('name');
    // Named by id or record number she is found as read finds her, active or not, and so in a
    // bulk export (whose other resources name her); a list leaves the inactive out.
    const named = search.ids !== null || params.has('identifier') || search.bulk !== undefined;
    if (!names) return pageOf(await patientPage(reading.db, where, reading.scope, search.count, search.cursor, named), toPatientResource, (p) => p.id);
    if (names.length > 1 || !names[0]!.trim()) throw invalid('name', 'Give one name to search for');
    const found = await patientIdsByName(
      reading.db,
      names[0]!,
      sql`${where} and ${reading.scope.patientRowSeen(sql`t`)}`,
      search.count,
      search.cursor ? decodeNameCursor(search.cursor) : null,
    );
    const rows = found.ids.length ? await patientsWhere(reading.db, idIn(sql`t.id`, found.ids), reading.scope) : [];
    const order = new Map(found.ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return pageOf({ rows, nextCursor: found.nextCursor }, toPatientResource, (p) => p.id);
  },
  async read(reading, id) {
    const rows = await patientsWhere(reading.db, sql`t.id = ${id}::uuid`, reading.scope);
    return one({ rows, nextCursor: null }, toPatientResource, (p) => p.id);
  },
};

// Staff and the clinic ------------------------------------------------------------------------

const STAFF_NAME = { first: sql`(lower(t.first_name) collate "C")`, last: sql`(lower(t.last_name) collate "C")` };

const practitionerType: TFhirType = {
  audit: null,
  async search(reading, search) {
    const where = and([
      ...common(search, sql`t.id`, null),
      ...stringValues('name', search.params.get('name')).map((term) => nameMatches(STAFF_NAME, term)),
      ...identifierConditions(search.params.get('identifier'), STAFF_NPI),
    ]);
    return pageOf(await staffPage(reading.db, where, search.count, search.cursor), toPractitionerResource, () => null);
  },
  async read(reading, id) {
    return one(await staffPage(reading.db, sql`t.id = ${id}::uuid`, 1, null), toPractitionerResource, () => null);
  },
};

const organizationType: TFhirType = {
  audit: null,
  ids: new RegExp(`^${CLINIC_ORGANIZATION_ID}$`),
  async search(reading, search) {
    const clinicName = (reading.deps as Deps).settings.current().clinicName;
    // The one resource, from the settings (no rows to page): `name` on the start of its name;
    // it carries no address, so `address` (checked as any string parameter) matches nothing.
    const named = stringValues('name', search.params.get('name')).every((term) => foldCase(clinicName).startsWith(foldCase(term)));
    const addressed = stringValues('address', search.params.get('address')).length === 0;
    const matches = (search.ids === null || search.ids.includes(CLINIC_ORGANIZATION_ID)) && !search.cursor && named && addressed;
    return { resources: matches ? [toOrganizationResource(clinicName)] : [], patientIds: [], nextCursor: null };
  },
  async read(reading, id) {
    return id === CLINIC_ORGANIZATION_ID ? { resource: toOrganizationResource((reading.deps as Deps).settings.current().clinicName), patientId: null } : null;
  },
};

/** A string as R4's string search compares it: case and accents ignored. */
const foldCase = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// Appointments and visits ---------------------------------------------------------------------

const FHIR_TO_APPOINTMENT_STATUS = new Map<string, TAppointmentStatus>(APPOINTMENT_STATUSES.map((s) => [APPOINTMENT_STATUS_TO_FHIR[s]!, s]));

function statusConditions(values: string[] | undefined): SQL[] {
  return (values ?? []).map((raw) => {
    const codes = raw.split(',').map((code) => code.trim());
    const unknown = codes.find((code) => !(FHIR_APPOINTMENT_STATUSES as readonly string[]).includes(code));
    if (unknown !== undefined) throw invalid('status', `Expected one of ${FHIR_APPOINTMENT_STATUSES.join(', ')}`);
    // A code of the value set the app never gives (proposed, waitlist...) matches nothing.
    const statuses = codes.map((code) => FHIR_TO_APPOINTMENT_STATUS.get(code)).filter((s): s is TAppointmentStatus => s !== undefined);
    if (statuses.length === 0) return NO_MATCH;
    return sql`t.status in (${sql.join(
      statuses.map((s) => sql`${s}`),
      sql`, `,
    )})`;
  });
}

/**
 * A search by patient lists only the visits whose patient the reader may name, as the app's own
 * list by patient does: a visit she may see but not name must not be tied to the patient by the
 * search that found it (issue 47).
 */
const namedWhenByPatient = (reading: Reading, search: TSearchBase): SQL[] =>
  patientParam(search.params).given ? [appointmentPatientNamed(reading.scope)] : [];

const appointmentType: TFhirType = {
  audit: { read: 'appointment.read', search: 'appointment.list', entityType: 'appointment' },
  async search(reading, search) {
    const where = and([
      ...common(search, sql`t.id`, sql`t.patient_id`),
      ...namedWhenByPatient(reading, search),
      ...dates(reading, search, sql`t.appointment_date`),
      ...statusConditions(search.params.get('status')),
    ]);
    return pageOf(await appointmentPage(reading.db, where, reading.scope, search.count, search.cursor), toAppointmentResource, (a) => a.subjectId);
  },
  async read(reading, id) {
    return one(await appointmentPage(reading.db, sql`t.id = ${id}::uuid`, reading.scope, 1, null), toAppointmentResource, (a) => a.subjectId);
  },
};

const COMPLETED = sql`t.status = 'completed'`;
const encounterType: TFhirType = {
  audit: { read: 'appointment.read', search: 'appointment.list', entityType: 'appointment' },
  async search(reading, search) {
    const where = and([
      COMPLETED,
      ...common(search, sql`t.id`, sql`t.patient_id`),
      ...namedWhenByPatient(reading, search),
      // A visit's date is its period: from when it began (checked in, or its appointment's time) to when it was completed.
      ...dates(reading, search, sql`coalesce(t.checked_in_at, t.appointment_date)`, sql`t.completed_at`),
    ]);
    return pageOf(await appointmentPage(reading.db, where, reading.scope, search.count, search.cursor), toEncounterResource, (a) => a.subjectId);
  },
  async read(reading, id) {
    return one(await appointmentPage(reading.db, sql`${COMPLETED} and t.id = ${id}::uuid`, reading.scope, 1, null), toEncounterResource, (a) => a.subjectId);
  },
};

// Notes ---------------------------------------------------------------------------------------

/**
 * `type`: the note types served with the LOINC code asked (NOTE_TYPE_LOINC); v3-NullFlavor's UNK
 * (`UNK` or its `system|`) the others, which are served with it.
 */
const noteTypeConditions = (values: string[] | undefined): SQL[] => {
  const unknown = codesAsked('type', values, NULL_FLAVOR);
  const coded = Object.keys(NOTE_TYPE_LOINC);
  return codesAsked('type', values, LOINC).map((asked, i) => {
    const byLoinc = inList(
      sql`patient_notes.note_type`,
      Object.entries(NOTE_TYPE_LOINC)
        .filter(([, loinc]) => asked.any || asked.codes.includes(loinc.code))
        .map(([type]) => type),
    );
    const unk = unknown[i]!;
    return unk.any || unk.codes.includes('UNK') ? sql`(${byLoinc} or not ${inList(sql`patient_notes.note_type`, coded)})` : byLoinc;
  });
};

const documentType: TFhirType = {
  audit: { read: 'note.read', search: 'note.list', entityType: 'note' },
  ids: new RegExp(`${UUID_ID.source}|${NOTE_VERSION_ID.source}`),
  async search(reading, search) {
    // A search finds current versions: `_id` of an earlier one (`{noteId}-v{n}`) names none.
    const ids = search.ids?.filter((id) => !NOTE_VERSION_ID.test(id)) ?? null;
    const where = and([
      ...common({ ...search, ids }, sql`patient_notes.id`, sql`patient_notes.patient_id`),
      ...fixedCode('category', search.params.get('category'), NOTE_CATEGORY.system, NOTE_CATEGORY.code),
      ...noteTypeConditions(search.params.get('type')),
      ...dates(reading, search, NOTE_DATE),
    ]);
    const versions = (n: TNoteRow) => (search.earlierVersions ? n.amendments.map((_, i) => toDocumentReference(n, i + 1)) : []);
    return pageOf(
      await finalizedNotePage(reading.db, where, reading.scope, search.count, search.cursor),
      (n) => [toDocumentReference(n), ...versions(n)],
      (n) => n.patientId,
    );
  },
  async read(reading, id) {
    // `{noteId}-v{n}`: the text before its n-th amendment.
    const version = NOTE_VERSION_ID.exec(id);
    const noteId = version ? version[1]! : id;
    const row = (await finalizedNotePage(reading.db, sql`patient_notes.id = ${noteId}::uuid`, reading.scope, 1, null)).rows[0];
    if (!row) return null;
    const n = version ? Number(version[2]) : undefined;
    if (n !== undefined && n > row.amendments.length) return null;
    return { resource: toDocumentReference(row, n), patientId: row.patientId };
  },
};

// Labs ----------------------------------------------------------------------------------------

const serviceRequestType: TFhirType = {
  audit: { read: 'lab.read', search: 'lab.list', entityType: 'lab_order' },
  async search(reading, search) {
    const where = and([
      ...common(search, sql`lab_orders.id`, sql`lab_orders.patient_id`),
      ...fixedCode('category', search.params.get('category'), ORDER_CATEGORY.system, ORDER_CATEGORY.code),
      ...codeConditions('code', search.params.get('code'), LOINC, LAB_ORDER_LOINC),
    ]);
    return pageOf(await labOrderPage(reading.db, where, reading.scope, search.count, search.cursor), toServiceRequest, (o) => o.patientId);
  },
  async read(reading, id) {
    return one(await labOrderPage(reading.db, sql`lab_orders.id = ${id}::uuid`, reading.scope, 1, null), toServiceRequest, (o) => o.patientId);
  },
};

const HAS_RESULTS = sql`lab_orders.status = 'received'`;
const diagnosticReportType: TFhirType = {
  audit: { read: 'lab.read', search: 'lab.list', entityType: 'lab_order' },
  async search(reading, search) {
    const where = and([
      HAS_RESULTS,
      ...common(search, sql`lab_orders.id`, sql`lab_orders.patient_id`),
      ...fixedCode('category', search.params.get('category'), REPORT_CATEGORY.system, REPORT_CATEGORY.code),
      ...codeConditions('code', search.params.get('code'), LOINC, LAB_ORDER_LOINC),
      // The report's effective time: when its results came in.
      ...dates(reading, search, sql`lab_orders.received_at`),
    ]);
    return pageOf(await labOrderPage(reading.db, where, reading.scope, search.count, search.cursor), toDiagnosticReport, (o) => o.patientId);
  },
  async read(reading, id) {
    return one(
      await labOrderPage(reading.db, sql`${HAS_RESULTS} and lab_orders.id = ${id}::uuid`, reading.scope, 1, null),
      toDiagnosticReport,
      (o) => o.patientId,
    );
  },
};

/**
 * Laboratory results, then (for a reader of the chart) vital signs: one search pages through the
 * lab results, and its last page's `next` link goes on into the vital signs (`category` picks one).
 */
const observationType: TFhirType = {
  audit: { read: 'lab.read', search: 'lab.list', entityType: 'lab_order' },
  ids: new RegExp(`${UUID_ID.source}|${VITAL_OBSERVATION_ID.source}`),
  async search(reading, search) {
    const kinds = observationKinds(search);
    // Built whatever the category asks for, so a bad code or date is refused even where no lab result is searched.
    const labWhere = labConditions(reading, search);
    const vitals = kinds.vitals && vitalObservations.mayRead(reading);
    if (vitalObservations.isCursor(search.cursor)) return vitalObservations.search(reading, search, vitalObservations.innerCursor(search.cursor!));
    const labs = kinds.lab
      ? pageOf(await labResultPage(reading.db, labWhere, reading.scope, search.count, search.cursor), toObservation, (r) => r.patientId)
      : { resources: [], patientIds: [], nextCursor: null };
    if (labs.nextCursor || !vitals) return labs;
    // The lab results are done: the vital signs fill the rest of the page, and go on on the next.
    const room = search.count - labs.resources.length;
    if (room <= 0) return { ...labs, nextCursor: VITALS_CURSOR };
    const vitalsPage = await vitalObservations.search(reading, { ...search, count: room }, null);
    return {
      resources: [...labs.resources, ...vitalsPage.resources],
      patientIds: [...new Set([...labs.patientIds, ...vitalsPage.patientIds])],
      nextCursor: vitalsPage.nextCursor,
    };
  },
  async read(reading, id) {
    if (!UUID_ID.test(id)) return vitalObservations.mayRead(reading) ? vitalObservations.read(reading, id) : null;
    return one(await labResultPage(reading.db, sql`t.id = ${id}::uuid`, reading.scope, 1, null), toObservation, (r) => r.patientId);
  },
};

function labConditions(reading: Reading, search: TSearchBase): SQL {
  // `_id` of a vital sign's Observation names no lab result.
  const ids = search.ids?.filter((id) => UUID_ID.test(id)) ?? null;
  return and([
    ...common({ ...search, ids }, sql`t.id`, sql`lab_orders.patient_id`),
    ...codeConditions('code', search.params.get('code'), LOINC, LAB_RESULT_LOINC),
    ...dates(reading, search, LAB_RESULT_EFFECTIVE),
  ]);
}

export const FHIR_TYPES: Record<TFhirResourceType, TFhirType> = withRevIncludes({
  Patient: patientType,
  Practitioner: practitionerType,
  Organization: organizationType,
  Appointment: appointmentType,
  Encounter: encounterType,
  DocumentReference: documentType,
  ServiceRequest: serviceRequestType,
  DiagnosticReport: diagnosticReportType,
  Observation: observationType,
  ...CHART_TYPES,
  Group: groupType,
});
