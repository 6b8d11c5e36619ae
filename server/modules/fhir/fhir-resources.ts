import type {
  Appointment,
  CodeableConcept,
  DiagnosticReport,
  DocumentReference,
  Element,
  Encounter,
  HumanName,
  Observation,
  Organization,
  Patient,
  Practitioner,
  Reference,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import type { TAppointmentStatus } from '#domain/appointments';
import { patientLabel } from '#domain/record-scope';
import type { TLabFlag } from '#domain/lab-flags';
import type { TLabOrderStatus } from '#domain/orders';
import type { TLabPriority } from '#domain/labs';
import type { TAppointmentRow, TLabOrderRow, TLabResultRow, TNoteRow, TPatientRow, TStaffRow } from './fhir.queries.ts';

/**
 * The app's rows as FHIR R4 resources (docs/decisions/fhir.md has the mapping and what US Core
 * still needs). Pure functions: what the reader may see was decided by the query. References to
 * a patient never carry her name (`display`): the name is in the Patient resource, which only
 * those who read patient records may fetch, as in the app.
 */

export const CLINIC_ORGANIZATION_ID = 'clinic';
/** The record number: the patient's id as a URI, the one identifier every record has. */
export const RECORD_NUMBER_SYSTEM = 'urn:ietf:rfc:3986';
export const recordNumber = (id: string) => `urn:uuid:${id}`;
/**
 * The prescription number ('RX-000123', issue 52): the clinic's own numbering, under the app's
 * URN namespace (as its error codes', fhir-http.ts), issued by the clinic (the identifier's assigner).
 */
export const PRESCRIPTION_NUMBER_SYSTEM = 'urn:clinic-ehr:prescription-number';

export const LOINC = 'http://loinc.org';
const meta = (updatedAt: string) => ({ lastUpdated: updatedAt });
// Typed as any reference: the target's type is in the string, which FHIR's Reference<T> cannot see.
const ref = <T extends Resource = Resource>(type: T['resourceType'], id: string): Reference<T> => ({ reference: `${type}/${id}` });
const loincConcept = (name: string, loinc: string | null): CodeableConcept => ({
  text: name,
  ...(loinc ? { coding: [{ system: LOINC, code: loinc, display: name }] } : {}),
});

export function toPatientResource(p: TPatientRow): Patient {
  return {
    resourceType: 'Patient',
    id: p.id,
    meta: meta(p.updatedAt),
    identifier: [{ use: 'usual', type: { text: 'Record number' }, system: RECORD_NUMBER_SYSTEM, value: recordNumber(p.id) }],
    active: p.isActive,
    name: [{ use: 'official', family: p.lastName, given: [p.firstName], text: `${p.firstName} ${p.lastName}` }],
    telecom: [...(p.phone ? [{ system: 'phone' as const, value: p.phone }] : []), ...(p.email ? [{ system: 'email' as const, value: p.email }] : [])],
    // The record keeps sex for the lab ranges; one that does not say is 'unknown' (US Core needs a value).
    gender: p.sex ?? 'unknown',
    ...(p.dateOfBirth ? { birthDate: p.dateOfBirth } : {}),
    ...(p.address ? { address: [{ text: p.address }] } : {}),
    ...(p.emergencyContact || p.emergencyPhone
      ? {
          contact: [
            {
              relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C', display: 'Emergency Contact' }] }],
              ...(p.emergencyContact ? { name: { text: p.emergencyContact } } : {}),
              ...(p.emergencyPhone ? { telecom: [{ system: 'phone' as const, value: p.emergencyPhone }] } : {}),
            },
          ],
        }
      : {}),
    managingOrganization: ref('Organization', CLINIC_ORGANIZATION_ID),
  };
}

/** The National Provider Identifier (US Core Practitioner's NPI slice), typed as HL7 v2's NPI. */
export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
const NPI_TYPE = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'NPI', display: 'National provider identifier' }] };

/** FHIR's extension saying why a value is missing, on a primitive (`_family`). */
const DATA_ABSENT_REASON_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';

/**
 * A staff member's name as US Core's Practitioner has it: a family name is required (1..1). An
 * account may have none: an administrator made from the command line, or someone who signed in
 * through the clinic's identity provider, may have a first name only, or no name at all. Her
 * family name is then said to be unknown by the data-absent-reason extension, as US Core's
 * rule for missing data asks, rather than made up (from her given name, say) or left out.
 */
function staffName(u: TStaffRow): HumanName & { _family?: Element } {
  const text = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return {
    ...(u.lastName ? { family: u.lastName } : { _family: { extension: [{ url: DATA_ABSENT_REASON_EXTENSION, valueCode: 'unknown' }] } }),
    ...(u.firstName ? { given: [u.firstName] } : {}),
    ...(text ? { text } : {}),
  };
}

export function toPractitionerResource(u: TStaffRow): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: u.id,
    meta: meta(u.updatedAt),
    // The account's id as a URI, as a patient's record number: the one identifier every account has.
    identifier: [
      { use: 'usual', type: { text: 'Staff account' }, system: RECORD_NUMBER_SYSTEM, value: recordNumber(u.id) },
      // A prescriber's NPI (her prescribing rights, checked when granted: 10 digits, Luhn), kept when the rights are revoked: it is hers for life.
      ...(u.npi ? [{ use: 'official' as const, type: NPI_TYPE, system: NPI_SYSTEM, value: u.npi }] : []),
    ],
    active: u.isActive,
    name: [staffName(u)],
    telecom: [{ system: 'email', value: u.email, use: 'work' }],
    qualification: [{ code: { text: u.role } }],
  };
}

export const toOrganizationResource = (clinicName: string): Organization => ({
  resourceType: 'Organization',
  id: CLINIC_ORGANIZATION_ID,
  active: true,
  type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov', display: 'Healthcare Provider' }] }],
  name: clinicName,
});

/** The app's appointment statuses as FHIR's (the visit under way has arrived; a completed one is fulfilled). */
/** Every code of R4's appointment status value set: each is a valid search, those the app never uses matching nothing. */
export const FHIR_APPOINTMENT_STATUSES: readonly Appointment['status'][] = [
  'proposed',
  'pending',
  'booked',
  'arrived',
  'fulfilled',
  'cancelled',
  'noshow',
  'entered-in-error',
  'checked-in',
  'waitlist',
];

export const APPOINTMENT_STATUS_TO_FHIR: Record<TAppointmentStatus, Appointment['status']> = {
  scheduled: 'booked',
  checked_in: 'checked-in',
  in_progress: 'arrived',
  completed: 'fulfilled',
  cancelled: 'cancelled',
  no_show: 'noshow',
};

/** The staff assigned to a visit, for a reader who sees assignments (null ids otherwise). */
const assignedStaff = (a: TAppointmentRow) =>
  [
    { id: a.nurseId, role: 'Nurse' },
    { id: a.scribeId, role: 'Scribe' },
  ].filter((s): s is { id: string; role: string } => s.id !== null);

export function toAppointmentResource(a: TAppointmentRow): Appointment {
  return {
    resourceType: 'Appointment',
    id: a.id,
    meta: meta(a.updatedAt),
    status: APPOINTMENT_STATUS_TO_FHIR[a.status],
    ...(a.status === 'cancelled' && a.statusReason ? { cancelationReason: { text: a.statusReason } } : {}),
    ...(a.appointmentType ? { appointmentType: { text: a.appointmentType } } : {}),
    ...(a.reason ? { reasonCode: [{ text: a.reason }] } : {}),
    start: a.start,
    end: a.end,
    minutesDuration: a.duration,
    ...(a.notes ? { comment: a.notes } : {}),
    participant: [
      { actor: visitPatient(a), required: 'required', status: 'accepted' },
      ...assignedStaff(a).map((s) => ({
        actor: ref<Practitioner>('Practitioner', s.id),
        type: [{ text: s.role }],
        required: 'required' as const,
        status: 'accepted' as const,
      })),
      ...(a.roomNumber ? [{ actor: { display: `Room ${a.roomNumber}` }, type: [{ text: 'Room' }], status: 'accepted' as const }] : []),
    ],
  };
}

/** A visit's patient: her reference where the reader may name her, else the app's 'Patient #' label alone. */
const visitPatient = (a: TAppointmentRow): Reference<Patient> => (a.patientId ? ref<Patient>('Patient', a.patientId) : { display: patientLabel(a.subjectId) });

const ENCOUNTER_TYPE = { system: 'http://snomed.info/sct', code: '308335008', display: 'Patient encounter procedure' } as const;

/** A completed visit. */
export function toEncounterResource(a: TAppointmentRow): Encounter {
  const staff = assignedStaff(a);
  return {
    resourceType: 'Encounter',
    id: a.id,
    meta: meta(a.updatedAt),
    status: 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
    // US Core asks for a type (1..*, us-core-encounter-type, extensible): every visit is a patient
    // encounter procedure (SNOMED CT 308335008, the value set's root); its kind is the clinic's words.
    type: [{ coding: [ENCOUNTER_TYPE], text: a.appointmentType ?? 'Visit' }],
    subject: visitPatient(a),
    ...(staff.length ? { participant: staff.map((s) => ({ individual: ref('Practitioner', s.id), type: [{ text: s.role }] })) } : {}),
    appointment: [ref('Appointment', a.id)],
    period: { start: a.checkedInAt ?? a.start, ...(a.completedAt ? { end: a.completedAt } : {}) },
    ...(a.reason ? { reasonCode: [{ text: a.reason }] } : {}),
    serviceProvider: ref('Organization', CLINIC_ORGANIZATION_ID),
  };
}

/**
 * The spec's note types (domain/notes.ts NOTE_TYPES) that LOINC's document ontology names, with
 * LOINC's display (US Core's DocumentReference type binding, required: a LOINC document code or
 * v3-NullFlavor UNK); the others, and a type written otherwise, are UNK with the clinic's words
 * as `type.text`.
 */
export const NOTE_TYPE_LOINC: Readonly<Record<string, { code: string; display: string }>> = {
  'Progress Note': { code: '11506-3', display: 'Progress note' },
  'Consultation Note': { code: '11488-4', display: 'Consult note' },
  'Discharge Summary': { code: '18842-5', display: 'Discharge summary' },
  'Procedure Note': { code: '28570-0', display: 'Procedure note' },
  'Nurse Assessment': { code: '34746-8', display: 'Nurse Note' },
  'Treatment Plan': { code: '18776-5', display: 'Plan of care note' },
};
export const NULL_FLAVOR = 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor';
const noteTypeConcept = (noteType: string): CodeableConcept => {
  const loinc = Object.hasOwn(NOTE_TYPE_LOINC, noteType) ? NOTE_TYPE_LOINC[noteType] : undefined;
  const coding = loinc ? { system: LOINC, code: loinc.code, display: loinc.display } : { system: NULL_FLAVOR, code: 'UNK', display: 'unknown' };
  return { coding: [coding], text: noteType };
};
/** DocumentReference's category: every note is a clinical note (US Core's category code system). */
export const NOTE_CATEGORY = { system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note' } as const;

/** An earlier version of an amended note: `{noteId}-v{n}`, n from 1 (as first finalized). */
export const noteVersionId = (noteId: string, version: number) => `${noteId}-v${version}`;
export const NOTE_VERSION_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-v([1-9]\d{0,3})$/;

const plainText = (content: string, title: string, creation: string) => ({
  attachment: { contentType: 'text/plain; charset=utf-8', language: 'en', data: Buffer.from(content, 'utf8').toString('base64'), title, creation },
});

/**
 * A finalized note as it reads now; with `version`, as it read before its `version`-th
 * amendment. Each version replaces the one before it (relatesTo), so the amendments form a
 * chain from the current text back to the text first finalized.
 */
export function toDocumentReference(n: TNoteRow, version?: number): DocumentReference {
  const amendments = n.amendments.length;
  const current = version === undefined;
  const v = version ?? amendments + 1;
  const before = current ? null : n.amendments[v - 1]!;
  const content = before ? (before.contentBefore ?? '') : n.content;
  const noteType = (before ? before.noteTypeBefore : null) ?? n.noteType;
  const date = current ? n.date : v === 1 ? (n.finalizedAt ?? n.updatedAt) : n.amendments[v - 2]!.at;
  return {
    resourceType: 'DocumentReference',
    id: current ? n.id : noteVersionId(n.id, v),
    meta: meta(current ? n.updatedAt : date),
    status: current ? 'current' : 'superseded',
    docStatus: v === 1 ? 'final' : 'amended',
    type: noteTypeConcept(noteType),
    category: [{ coding: [{ ...NOTE_CATEGORY, display: 'Clinical Note' }] }],
    subject: ref('Patient', n.patientId),
    date,
    author: [ref('Practitioner', n.authorId)],
    custodian: ref('Organization', CLINIC_ORGANIZATION_ID),
    ...(v > 1 ? { relatesTo: [{ code: 'replaces', target: ref('DocumentReference', noteVersionId(n.id, v - 1)) }] } : {}),
    description: noteType,
    content: [plainText(content, noteType, n.createdAt)],
  };
}

const SERVICE_REQUEST_STATUS: Record<TLabOrderStatus, ServiceRequest['status']> = {
  ordered: 'active',
  pending: 'active',
  received: 'completed',
  cancelled: 'revoked',
};
const PRIORITY: Record<TLabPriority, ServiceRequest['priority']> = { routine: 'routine', urgent: 'urgent', stat: 'stat' };
/** A lab order's category (SNOMED CT), and its report's (HL7 v2 table 0074), the same for every one. */
export const ORDER_CATEGORY = { system: 'http://snomed.info/sct', code: '108252007' } as const;
export const REPORT_CATEGORY = { system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' } as const;
const LAB_CATEGORY = { coding: [{ ...ORDER_CATEGORY, display: 'Laboratory procedure' }] };

/** `note` from the texts that are there, or nothing. */
const notesOf = (texts: (string | null | false)[]) => {
  const note = texts.filter((t): t is string => Boolean(t)).map((t) => ({ text: t }));
  return note.length > 0 ? { note } : {};
};

export function toServiceRequest(o: TLabOrderRow): ServiceRequest {
  return {
    resourceType: 'ServiceRequest',
    id: o.id,
    meta: meta(o.updatedAt),
    status: SERVICE_REQUEST_STATUS[o.status],
    intent: 'order',
    category: [LAB_CATEGORY],
    priority: PRIORITY[o.priority],
    code: loincConcept(o.orderName, o.loinc),
    subject: ref('Patient', o.patientId),
    authoredOn: o.orderedAt,
    ...(o.providerId ? { requester: ref('Practitioner', o.providerId) } : {}),
    // R4's ServiceRequest has no statusReason (R5 added it): why it was cancelled is a note.
    ...notesOf([o.description, o.status === 'cancelled' && o.statusReason ? `Cancelled: ${o.statusReason}` : null]),
  };
}

/** The report of an order whose results are in. */
export function toDiagnosticReport(o: TLabOrderRow): DiagnosticReport {
  return {
    resourceType: 'DiagnosticReport',
    id: o.id,
    meta: meta(o.updatedAt),
    basedOn: [ref('ServiceRequest', o.id)],
    status: o.reportStatus,
    category: [{ coding: [{ ...REPORT_CATEGORY, display: 'Laboratory' }] }],
    code: loincConcept(o.orderName, o.loinc),
    subject: ref('Patient', o.patientId),
    ...(o.receivedAt ? { effectiveDateTime: o.receivedAt, issued: o.receivedAt } : {}),
    result: o.resultIds.map((id) => ref('Observation', id)),
    ...(o.results ? { conclusion: o.results } : {}),
  };
}

/** The flags as FHIR's observation interpretation codes (the same letters, HL7 v3). */
const INTERPRETATION: Record<TLabFlag, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critical low',
  HH: 'Critical high',
  A: 'Abnormal',
  AA: 'Critical abnormal',
};

export function toObservation(r: TLabResultRow): Observation {
  const quantity = (value: number) => ({ value, ...(r.unit ? { unit: r.unit } : {}) });
  return {
    resourceType: 'Observation',
    id: r.id,
    meta: meta(r.correctedAt ?? r.enteredAt),
    basedOn: [ref('ServiceRequest', r.orderId)],
    status: r.resultStatus,
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory', display: 'Laboratory' }] }],
    code: loincConcept(r.name, r.loinc),
    subject: ref('Patient', r.patientId),
    effectiveDateTime: r.effectiveAt,
    issued: r.enteredAt,
    ...(r.valueNumeric !== null ? { valueQuantity: quantity(r.valueNumeric) } : r.valueText !== null ? { valueString: r.valueText } : {}),
    ...(r.valueNumeric === null && r.valueText === null
      ? { dataAbsentReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'unknown' }] } }
      : {}),
    ...(r.flag
      ? {
          interpretation: [
            { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: r.flag, display: INTERPRETATION[r.flag] }] },
          ],
        }
      : {}),
    ...(r.refLow !== null || r.refHigh !== null
      ? { referenceRange: [{ ...(r.refLow !== null ? { low: quantity(r.refLow) } : {}), ...(r.refHigh !== null ? { high: quantity(r.refHigh) } : {}) }] }
      : {}),
  };
}
