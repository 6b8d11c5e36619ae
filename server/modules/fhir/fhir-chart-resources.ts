import type { AllergyIntolerance, CodeableConcept, Condition, Duration, MedicationRequest, Observation, Resource, TimingRepeat } from '@medplum/fhirtypes';
import type { TMedication } from '#domain/chart';
import { prescriptionNumber } from '#domain/prescriptions';
import { sigSentence, type TFrequency } from '#domain/sig';
import { VITAL_DEFINITIONS, vitalFlag, withComputed, type TVitalSeries } from '#domain/vital-signs';
import type { TAllergyEntryRow, TMedicationRow, TProblemRow, TSignedPrescriptionStatus, TVitalsRow } from './fhir.queries.ts';
import { CLINIC_ORGANIZATION_ID, LOINC, PRESCRIPTION_NUMBER_SYSTEM } from './fhir-resources.ts';

/**
 * The clinical chart's lists as FHIR R4 resources (issue 51; docs/decisions/fhir.md): each
 * allergy an AllergyIntolerance (and an NKA / NKDA statement one with SNOMED CT's code), each
 * problem a problem-list-item Condition, each medication a MedicationRequest as US Core asks for
 * reported ones (one a prescription put there: that prescription's order, issue 52), and each set
 * of vital signs the vital-signs Observations of its signs (blood pressure one panel with two
 * components, BMI computed). Entered-in-error entries keep their
 * status, never their clinical status (FHIR's invariants ait-2 and con-5).
 */

const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem';
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
 * What she takes as a MedicationRequest: one a signed prescription put on her list is that
 * prescription's order (below); another prescribed here is an order by its recorder; one she
 * reports, or from an outside record, is reported (US Core's guidance for reported
 * medications), a plan when she reported it herself.
 */
export function toMedicationRequestResource(m: TMedicationRow): MedicationRequest {
  if (m.prescription) return prescriptionOrder(m, m.prescription);
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
    medicationCodeableConcept: medicationOf(m),
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
              ...(m.start || m.stop ? { timing: { repeat: { boundsPeriod: listedPeriod(m) } } } : {}),
            },
          ],
        }
      : {}),
    ...notes(m),
  };
}

const medicationOf = (m: TMedicationRow): CodeableConcept => ({ ...(m.rxcui ? coded(RXNORM, m.rxcui, m.name) : {}), text: m.name });
/** The days the entry stands on her list. */
const listedPeriod = (m: TMedicationRow) => ({ ...(m.start ? { start: m.start } : {}), ...(m.stop ? { end: m.stop } : {}) });

/** A prescription's status as its order's: signed, or printed, it is in force. */
const ORDER_STATUS: Record<TSignedPrescriptionStatus, MedicationRequest['status']> = {
  signed: 'active',
  active: 'active',
  completed: 'completed',
  discontinued: 'stopped',
  entered_in_error: 'entered-in-error',
};

const every = (frequency: number, period: number, periodUnit: NonNullable<TimingRepeat['periodUnit']>): TimingRepeat => ({ frequency, period, periodUnit });
/** Each rhythm of a sig (domain/sig.ts FREQUENCIES) as a timing: so many times a period, one dose, or a time of day each day. */
const RHYTHMS: Record<TFrequency, TimingRepeat> = {
  once: { count: 1 },
  daily: every(1, 1, 'd'),
  bid: every(2, 1, 'd'),
  tid: every(3, 1, 'd'),
  qid: every(4, 1, 'd'),
  q4h: every(1, 4, 'h'),
  q6h: every(1, 6, 'h'),
  q8h: every(1, 8, 'h'),
  q12h: every(1, 12, 'h'),
  morning: { ...every(1, 1, 'd'), when: ['MORN'] },
  bedtime: { ...every(1, 1, 'd'), when: ['HS'] },
  weekly: every(1, 1, 'wk'),
};
/** Days as a Duration: UCUM's code, as FHIR's duration requires (drt-1). */
const days = (value: number): Duration => ({ value, unit: value === 1 ? 'day' : 'days', system: UCUM, code: 'd' });
/** HL7 v2's placer identifier: the number the orderer gave the order. */
const PLACER_NUMBER: CodeableConcept = { ...coded(`${TERMINOLOGY}/v2-0203`, 'PLAC', 'Placer Identifier'), text: 'Prescription number' };

/**
 * The entry's prescription as its order (issue 52): its number, its status, signed by its
 * prescriber, the sig in words and as a structured dose and timing, what to dispense, whether a
 * substitute may be, and the problem it treats.
 */
function prescriptionOrder(m: TMedicationRow, rx: NonNullable<TMedicationRow['prescription']>): MedicationRequest {
  const { sig } = rx;
  return {
    resourceType: 'MedicationRequest',
    id: m.id,
    // Either may have changed last: the prescription ended, or the entry edited in the chart.
    meta: { lastUpdated: rx.updatedAt > m.updatedAt ? rx.updatedAt : m.updatedAt },
    identifier: [
      {
        use: 'official',
        type: PLACER_NUMBER,
        system: PRESCRIPTION_NUMBER_SYSTEM,
        value: prescriptionNumber(rx.number),
        assigner: ref('Organization', CLINIC_ORGANIZATION_ID),
      },
    ],
    status: ORDER_STATUS[rx.status],
    ...(rx.statusReason ? { statusReason: { text: rx.statusReason } } : {}),
    intent: 'order',
    // US Core's Must Support category: taken at home, dispensed by a community pharmacy.
    category: [coded(`${TERMINOLOGY}/medicationrequest-category`, 'community', 'Community')],
    reportedBoolean: false,
    medicationCodeableConcept: medicationOf(m),
    subject: ref('Patient', m.patientId),
    authoredOn: rx.signedAt,
    requester: ref('Practitioner', rx.prescriberId),
    ...(rx.diagnosisId ? { reasonReference: [ref('Condition', rx.diagnosisId)] } : {}),
    dosageInstruction: [
      {
        text: sigSentence(sig),
        // For its duration; without one, the days it has stood on her list, as the entry says.
        timing: {
          repeat: {
            ...RHYTHMS[sig.frequency],
            ...(sig.durationDays ? { boundsDuration: days(sig.durationDays) } : m.start || m.stop ? { boundsPeriod: listedPeriod(m) } : {}),
          },
        },
        ...(!sig.asNeeded
          ? { asNeededBoolean: false }
          : sig.asNeededReason
            ? { asNeededCodeableConcept: { text: sig.asNeededReason } }
            : { asNeededBoolean: true }),
        route: { text: sig.route },
        doseAndRate: [{ doseQuantity: { value: sig.doseAmount, unit: sig.doseUnit } }],
      },
    ],
    dispenseRequest: {
      quantity: { value: rx.quantity, unit: rx.quantityUnit },
      numberOfRepeatsAllowed: rx.refills,
      ...(rx.daysSupply ? { expectedSupplyDuration: days(rx.daysSupply) } : {}),
    },
    substitution: { allowedBoolean: rx.substitutionAllowed },
    ...(m.note || rx.pharmacyNote
      ? { note: [...(m.note ? [{ text: m.note }] : []), ...(rx.pharmacyNote ? [{ text: `To the pharmacy: ${rx.pharmacyNote}` }] : [])] }
      : {}),
  };
}

// Vital signs -----------------------------------------------------------------------------------

/** The signs served as an Observation each; the two pressures go together, as one blood pressure panel. */
export type TServedSign = Exclude<TVitalSeries, 'systolic' | 'diastolic'> | 'bp';
const BP_PANEL = { code: '85354-9', display: 'Blood pressure panel with all children optional' } as const;
/** The id of one sign's Observation of a set: `{setId}-{sign}` (blood pressure `-bp`). */
export const vitalObservationId = (setId: string, sign: TServedSign) => `${setId}-${sign}`;
export const VITAL_OBSERVATION_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(bp|heartRate|respiratoryRate|temperature|spo2|weight|height|bmi|pain)$/;

const VITALS_CATEGORY = coded(`${TERMINOLOGY}/observation-category`, 'vital-signs', 'Vital Signs');
/**
 * LOINC's own display (its long common name) of each sign's code, which a coding's display must
 * be (a validator that knows LOINC refuses another); the app's label is the concept's text.
 */
const LOINC_DISPLAY: Record<TVitalSeries, string> = {
  systolic: 'Systolic blood pressure',
  diastolic: 'Diastolic blood pressure',
  heartRate: 'Heart rate',
  respiratoryRate: 'Respiratory rate',
  temperature: 'Body temperature',
  spo2: 'Oxygen saturation in Arterial blood by Pulse oximetry',
  weight: 'Body weight',
  height: 'Body height',
  bmi: 'Body mass index (BMI) [Ratio]',
  pain: 'Pain severity - 0-10 verbal numeric rating [Score] - Reported',
};
/** Oxygen saturation by pulse oximetry: US Core asks for both LOINC codes. */
const EXTRA_CODES: Partial<Record<TVitalSeries, { code: string; display: string }>> = {
  spo2: { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
};
const INTERPRETATION = { low: { code: 'L', display: 'Low' }, high: { code: 'H', display: 'High' } } as const;

const SINGLE_SIGNS = ['heartRate', 'respiratoryRate', 'temperature', 'spo2', 'weight', 'height', 'bmi', 'pain'] as const;
/** The LOINC codes of each served sign's Observation.code (what `code` searches), blood pressure its panel's. */
export const SERVED_SIGN_CODES: Readonly<Record<TServedSign, readonly string[]>> = {
  bp: [BP_PANEL.code],
  ...(Object.fromEntries(SINGLE_SIGNS.map((sign) => [sign, [VITAL_DEFINITIONS[sign].loinc, ...(EXTRA_CODES[sign] ? [EXTRA_CODES[sign].code] : [])]])) as Record<
    (typeof SINGLE_SIGNS)[number],
    string[]
  >),
};

const signCode = (sign: TVitalSeries): CodeableConcept => {
  const d = VITAL_DEFINITIONS[sign];
  const extra = EXTRA_CODES[sign];
  return {
    coding: [{ system: LOINC, code: d.loinc, display: LOINC_DISPLAY[sign] }, ...(extra ? [{ system: LOINC, code: extra.code, display: extra.display }] : [])],
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
  const common = (sign: TServedSign) => ({
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
  // Blood pressure is one panel of its two components, also when only one was taken: the other
  // then says why it has no value (FHIR's vital signs and US Core's blood pressure profile).
  if (values.systolic !== null || values.diastolic !== null) {
    observations.push({
      ...common('bp'),
      code: { coding: [{ system: LOINC, ...BP_PANEL }], text: 'Blood pressure' },
      component: (['systolic', 'diastolic'] as const).map((sign) => {
        const value = values[sign];
        return value === null
          ? { code: signCode(sign), dataAbsentReason: coded(`${TERMINOLOGY}/data-absent-reason`, 'not-performed', 'Not Performed') }
          : { code: signCode(sign), valueQuantity: quantity(sign, value), ...interpretation(sign, value) };
      }),
    });
  }
  for (const sign of SINGLE_SIGNS) {
    const value = values[sign];
    if (value === null || value === undefined) continue;
    observations.push({ ...common(sign), code: signCode(sign), valueQuantity: quantity(sign, value), ...interpretation(sign, value) });
  }
  return observations;
}
