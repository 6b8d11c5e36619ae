import type { AllergyIntolerance, CodeableConcept, Condition, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import type { TMedication } from '#domain/chart';
import { VITAL_DEFINITIONS, vitalFlag, withComputed, type TVitalSeries } from '#domain/vital-signs';
import type { TAllergyEntryRow, TMedicationRow, TProblemRow, TVitalsRow } from './fhir.queries.ts';
import { CLINIC_ORGANIZATION_ID } from './fhir-resources.ts';

/**
 * The clinical chart's lists as FHIR R4 resources (issue 51; docs/decisions/fhir.md): each
 * allergy an AllergyIntolerance (and an NKA / NKDA statement one with SNOMED CT's code), each
 * problem a problem-list-item Condition, each medication a MedicationRequest as US Core asks for
 * reported ones, and each set of vital signs the vital-signs Observations of its signs (blood
 * pressure one panel with two components, BMI computed). Entered-in-error entries keep their
 * status, never their clinical status (FHIR's invariants ait-2 and con-5).
 */

const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const SNOMED = 'http://snomed.info/sct';
const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

// A plain reference fits whichever target type the field names.
const ref = (type: Resource['resourceType'], id: string): { reference: string } => ({ reference: `${type}/${id}` });
const coded = (system: string, code: string, display?: string): CodeableConcept => ({ coding: [{ system, code, ...(display ? { display } : {}) }] });
const recorderOf = (row: { recorderId: string | null }) => (row.recorderId ? { recorder: ref('Practitioner', row.recorderId) } : {});
const notes = (row: { note: string | null }) => (row.note ? { note: [{ text: row.note }] } : {});

/** NKA and NKDA as SNOMED CT's situations, the codes US Core names for them. */
const STATEMENT_CODES = { nka: { code: '716186003', display: 'No known allergy' }, nkda: { code: '409137002', display: 'No known drug allergy' } } as const;

export function toAllergyEntry(a: TAllergyEntryRow): AllergyIntolerance {
  const base = { resourceType: 'AllergyIntolerance' as const, id: a.id, meta: { lastUpdated: a.updatedAt }, patient: ref('Patient', a.patientId) };
  if (a.kind === 'statement') {
    const statement = STATEMENT_CODES[a.statement!];
    return {
      ...base,
      clinicalStatus: coded(`${TERMINOLOGY}/allergyintolerance-clinical`, 'active'),
      verificationStatus: coded(`${TERMINOLOGY}/allergyintolerance-verification`, 'confirmed'),
      code: { ...coded(SNOMED, statement.code, statement.display), text: statement.display },
      recordedDate: a.recordedAt,
      ...recorderOf(a),
    };
  }
  const wrong = a.status === 'entered_in_error';
  return {
    ...base,
    ...(wrong ? {} : { clinicalStatus: coded(`${TERMINOLOGY}/allergyintolerance-clinical`, a.status) }),
    verificationStatus: coded(`${TERMINOLOGY}/allergyintolerance-verification`, wrong ? 'entered-in-error' : a.state === 'draft' ? 'unconfirmed' : 'confirmed'),
    type: a.type!,
    category: [a.category!],
    criticality: a.criticality === 'unable_to_assess' ? 'unable-to-assess' : a.criticality!,
    code: { text: a.substanceName! },
    ...(a.onset ? { onsetDateTime: a.onset } : {}),
    recordedDate: a.recordedAt,
    ...recorderOf(a),
    // A reaction names what it was: severity alone has nowhere to go.
    ...(a.reactions.length > 0
      ? { reaction: [{ manifestation: a.reactions.map((r) => ({ text: r })), ...(a.severity ? { severity: a.severity } : {}) }] }
      : {}),
    ...notes(a),
  };
}

export function toConditionResource(p: TProblemRow): Condition {
  const wrong = p.verification === 'entered_in_error';
  return {
    resourceType: 'Condition',
    id: p.id,
    meta: { lastUpdated: p.updatedAt },
    ...(wrong ? {} : { clinicalStatus: coded(`${TERMINOLOGY}/condition-clinical`, p.clinicalStatus) }),
    verificationStatus: coded(`${TERMINOLOGY}/condition-ver-status`, wrong ? 'entered-in-error' : p.verification),
    category: [coded(`${TERMINOLOGY}/condition-category`, 'problem-list-item', 'Problem List Item')],
    code: { ...(p.code ? coded(ICD10CM, p.code, p.name) : {}), text: p.name },
    subject: ref('Patient', p.patientId),
    ...(p.onset ? { onsetDateTime: p.onset } : {}),
    // Abated only when no longer active (con-4): the chart's rule too.
    ...(p.abatement && ['inactive', 'remission', 'resolved'].includes(p.clinicalStatus) ? { abatementDateTime: p.abatement } : {}),
    recordedDate: p.recordedAt,
    ...recorderOf(p),
    ...notes(p),
  };
}

const MEDICATION_STATUS: Record<TMedication['status'], MedicationRequest['status']> = {
  active: 'active',
  on_hold: 'on-hold',
  stopped: 'stopped',
  entered_in_error: 'entered-in-error',
};

/**
 * What she takes as a MedicationRequest: one prescribed here is an order by its recorder; one
 * she reports, or from an outside record, is reported (US Core's guidance for reported
 * medications), a plan when she reported it herself.
 */
export function toMedicationRequestResource(m: TMedicationRow): MedicationRequest {
  const sig = [m.dose, m.route, m.frequency].filter(Boolean).join(', ');
  const reported = m.source !== 'prescribed_here';
  return {
    resourceType: 'MedicationRequest',
    id: m.id,
    meta: { lastUpdated: m.updatedAt },
    status: MEDICATION_STATUS[m.status],
    ...(m.stopReason ? { statusReason: { text: m.stopReason } } : {}),
    intent: m.source === 'patient_reported' ? 'plan' : 'order',
    ...(m.source === 'patient_reported' ? { reportedReference: ref('Patient', m.patientId) } : { reportedBoolean: reported }),
    medicationCodeableConcept: { ...(m.rxcui ? coded(RXNORM, m.rxcui, m.name) : {}), text: m.name },
    subject: ref('Patient', m.patientId),
    authoredOn: m.recordedAt,
    // US Core asks who: she, for what she reported herself; else who recorded it, or the clinic.
    requester:
      m.source === 'patient_reported'
        ? ref('Patient', m.patientId)
        : m.recorderId
          ? ref('Practitioner', m.recorderId)
          : ref('Organization', CLINIC_ORGANIZATION_ID),
    ...(sig || m.start || m.stop
      ? {
          dosageInstruction: [
            {
              ...(sig ? { text: sig } : {}),
              ...(m.route ? { route: { text: m.route } } : {}),
              ...(m.start || m.stop
                ? { timing: { repeat: { boundsPeriod: { ...(m.start ? { start: m.start } : {}), ...(m.stop ? { end: m.stop } : {}) } } } }
                : {}),
            },
          ],
        }
      : {}),
    ...notes(m),
  };
}

// Vital signs -----------------------------------------------------------------------------------

/** The id of one sign's Observation of a set: `{setId}-{sign}` (blood pressure `-bp`). */
export const vitalObservationId = (setId: string, sign: TVitalSeries | 'bp') => `${setId}-${sign}`;
export const VITAL_OBSERVATION_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(bp|systolic|diastolic|heartRate|respiratoryRate|temperature|spo2|weight|height|bmi|pain)$/;

const VITALS_CATEGORY = coded(`${TERMINOLOGY}/observation-category`, 'vital-signs', 'Vital Signs');
/** Oxygen saturation by pulse oximetry: US Core asks for both LOINC codes. */
const EXTRA_CODES: Partial<Record<TVitalSeries, { code: string; display: string }>> = {
  spo2: { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
};
const INTERPRETATION = { low: { code: 'L', display: 'Low' }, high: { code: 'H', display: 'High' } } as const;

const signCode = (sign: TVitalSeries): CodeableConcept => {
  const d = VITAL_DEFINITIONS[sign];
  const extra = EXTRA_CODES[sign];
  return {
    coding: [{ system: LOINC, code: d.loinc, display: d.label }, ...(extra ? [{ system: LOINC, code: extra.code, display: extra.display }] : [])],
    text: d.label,
  };
};
const quantity = (sign: TVitalSeries, value: number) => ({ value, unit: VITAL_DEFINITIONS[sign].unit, system: UCUM, code: VITAL_DEFINITIONS[sign].ucum });
const interpretation = (sign: TVitalSeries, value: number) => {
  const flag = vitalFlag(sign, value);
  return flag ? { interpretation: [coded(`${TERMINOLOGY}/v3-ObservationInterpretation`, INTERPRETATION[flag].code, INTERPRETATION[flag].display)] } : {};
};

/** A set of vital signs as the Observations of its signs (only those taken). */
export function toVitalObservations(v: TVitalsRow): Observation[] {
  const { values } = withComputed(v);
  const common = (sign: TVitalSeries | 'bp') => ({
    resourceType: 'Observation' as const,
    id: vitalObservationId(v.id, sign),
    meta: { lastUpdated: v.updatedAt },
    status: v.status === 'entered_in_error' ? ('entered-in-error' as const) : ('final' as const),
    category: [VITALS_CATEGORY],
    subject: ref('Patient', v.patientId),
    effectiveDateTime: v.takenAt,
    issued: v.recordedAt,
    ...(v.recorderId ? { performer: [ref('Practitioner', v.recorderId)] } : {}),
  });
  const observations: Observation[] = [];
  if (values.systolic !== null && values.diastolic !== null) {
    observations.push({
      ...common('bp'),
      code: { coding: [{ system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' }], text: 'Blood pressure' },
      component: (['systolic', 'diastolic'] as const).map((sign) => ({
        code: signCode(sign),
        valueQuantity: quantity(sign, values[sign]!),
        ...interpretation(sign, values[sign]!),
      })),
    });
  }
  // A pressure with one of its two values taken goes as that value alone.
  const pressure = values.systolic !== null && values.diastolic !== null ? [] : (['systolic', 'diastolic'] as const);
  for (const sign of [...pressure, 'heartRate', 'respiratoryRate', 'temperature', 'spo2', 'weight', 'height', 'bmi', 'pain'] as const) {
    const value = values[sign];
    if (value === null || value === undefined) continue;
    observations.push({ ...common(sign), code: signCode(sign), valueQuantity: quantity(sign, value), ...interpretation(sign, value) });
  }
  return observations;
}
