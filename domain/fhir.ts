import { z } from 'zod';
import type { TCapability } from './permissions.ts';

/**
 * The FHIR R4 read API (issue 35; docs/decisions/fhir.md): which resource types it serves, who
 * may read each (the same capability as the app's own screen for that data), and which search
 * parameters each takes. One table: the routes, the CapabilityStatement and the tests all read it,
 * so what `metadata` declares is exactly what is served.
 */
export const FHIR_VERSION = '4.0.1';
export const FHIR_CONTENT_TYPE = 'application/fhir+json';

export interface TFhirResourceRule {
  /** Who may read it, as for the app's screen of the same data. */
  capability: TCapability;
  /** Search parameters beyond `_id`, `_count` and the server's own paging cursor. */
  search: readonly string[];
  /** What a reader of the API is told about it in `metadata`. */
  documentation: string;
}

const US_CORE = 'http://hl7.org/fhir/us/core/StructureDefinition';
/**
 * The US Core 6.1 profiles each type's resources are validated against in the tests (fhir.test.ts:
 * Medplum's validator and the written-out US Core checks, tests/helpers/us-core-checks.ts), named
 * in `metadata`'s supportedProfile. Only these: a profile named is a promise a partner's tool will
 * hold us to, and the tests refuse a resource of a type listed here that no check judges, or one
 * judged by a profile not listed. Appointment and Group have no US Core profile. Provenance is
 * served only as `_revinclude`d (no type of its own in `metadata`), and checked as listed here.
 */
const usCore = (...names: string[]) => names.map((name) => `${US_CORE}/${name}`);
export const FHIR_US_CORE_PROFILES: Partial<Record<string, readonly string[]>> = {
  Patient: usCore('us-core-patient'),
  Practitioner: usCore('us-core-practitioner'),
  Organization: usCore('us-core-organization'),
  Encounter: usCore('us-core-encounter'),
  DocumentReference: usCore('us-core-documentreference'),
  ServiceRequest: usCore('us-core-servicerequest'),
  DiagnosticReport: usCore('us-core-diagnosticreport-lab'),
  Observation: usCore(
    'us-core-observation-lab',
    'us-core-vital-signs',
    'us-core-blood-pressure',
    'us-core-heart-rate',
    'us-core-respiratory-rate',
    'us-core-body-temperature',
    'us-core-pulse-oximetry',
    'us-core-body-weight',
    'us-core-body-height',
    'us-core-bmi',
  ),
  AllergyIntolerance: usCore('us-core-allergyintolerance'),
  Condition: usCore('us-core-condition-problems-health-concerns'),
  MedicationRequest: usCore('us-core-medicationrequest'),
  Provenance: usCore('us-core-provenance'),
};

export const FHIR_RESOURCES = {
  Patient: {
    capability: 'patients.read',
    search: ['name', 'birthdate', 'identifier', 'gender'],
    documentation:
      'Active patients in search; any patient by id. name matches the start of the first or last name, or of "first last"; gender is the record\'s sex (unknown where it does not say).',
  },
  Practitioner: {
    capability: 'users.readDirectory',
    search: ['name', 'identifier'],
    documentation: "The clinic's staff accounts, each identified by its account id (urn:uuid). name matches as Patient's does.",
  },
  Organization: {
    capability: 'dashboard.view',
    search: ['name', 'address'],
    documentation: 'The clinic itself (one resource). name matches the start of its name; it carries no address, so address matches nothing.',
  },
  Appointment: { capability: 'appointments.read', search: ['patient', 'date', 'status'], documentation: 'Every appointment, in time order.' },
  Encounter: { capability: 'appointments.read', search: ['patient', 'date'], documentation: 'Completed visits, in time order.' },
  DocumentReference: {
    capability: 'notes.read',
    search: ['patient', 'category', 'type', 'date'],
    documentation:
      "Finalized clinical notes the reader may see (category clinical-note), text as a plain-text attachment; the spec's note types coded in LOINC; date is when the version served was finalized or amended; an amended note relates to (replaces) its earlier version.",
  },
  ServiceRequest: {
    capability: 'labs.read',
    search: ['patient', 'category', 'code'],
    documentation: "Lab orders (category SNOMED CT 108252007), code the test's LOINC.",
  },
  DiagnosticReport: {
    capability: 'labs.read',
    search: ['patient', 'category', 'code', 'date'],
    documentation: "The results of lab orders that have them (category LAB), code the test's LOINC, date when the results came in.",
  },
  Observation: {
    capability: 'labs.read',
    search: ['patient', 'category', 'code', 'date'],
    documentation:
      "Laboratory results, one per analyte (code the analyte's LOINC), with reference range and interpretation; and, for readers of the chart, vital signs (category vital-signs), one per sign of each set, blood pressure as one panel. date is the effective time.",
  },
  AllergyIntolerance: {
    capability: 'chart.read',
    search: ['patient'],
    documentation: "Each allergy or intolerance of a patient's chart, and her 'No known (drug) allergies' statement, coded in SNOMED CT.",
  },
  Condition: { capability: 'chart.read', search: ['patient'], documentation: "A patient's problem list, coded in ICD-10-CM where chosen from the list." },
  MedicationRequest: {
    capability: 'chart.read',
    search: ['patient'],
    documentation:
      'What a patient takes: prescribed here (an order; one signed here carries its prescription: number, sig as text and timing, dispense, substitution), or reported by her or an outside record (reported), coded in RxNorm where known.',
  },
  Group: {
    capability: 'patients.read',
    search: [],
    documentation:
      "The clinic's patient groups (a study, a payer's members), kept by an admin: an actual group of persons, each member a reference to her Patient (only those the reader sees; quantity counts them). Exported with Group/{id}/$export.",
  },
} as const satisfies Record<string, TFhirResourceRule>;

export type TFhirResourceType = keyof typeof FHIR_RESOURCES;
export const FHIR_RESOURCE_TYPES = Object.keys(FHIR_RESOURCES) as TFhirResourceType[];
export const isFhirResourceType = (value: string): value is TFhirResourceType => Object.hasOwn(FHIR_RESOURCES, value);

/** Parameters every search takes: `_id` and the page size (and the opaque cursor of a `next` link). */
export const FHIR_COMMON_SEARCH = ['_id', '_count'] as const;

/**
 * What `_revinclude` may ask for on a search of any type: each resource's Provenance (US Core
 * 6.1's us-core-provenance), the last change of the record behind it. Included only: no
 * Provenance is read or searched on its own (docs/decisions/fhir.md, "US Core searches").
 */
export const FHIR_REV_INCLUDES = ['Provenance:target'] as const;
export type TFhirRevInclude = (typeof FHIR_REV_INCLUDES)[number];

/** Each search parameter's FHIR type, for `metadata`. */
export const FHIR_SEARCH_PARAM_TYPES: Record<string, 'string' | 'date' | 'token' | 'reference'> = {
  _id: 'token',
  name: 'string',
  birthdate: 'date',
  identifier: 'token',
  patient: 'reference',
  date: 'date',
  status: 'token',
  category: 'token',
  gender: 'token',
  code: 'token',
  type: 'token',
  address: 'string',
};
export const FHIR_PAGE = { default: 20, max: 100 } as const;

/**
 * An API client's scopes: reading a type (SMART v1 `system/Patient.read` or v2
 * `system/Patient.rs`, or `*` for every type), and sending a lab's results (issue 54): creating
 * the two result types (v2 `system/DiagnosticReport.c`, v1 `.write`), which nothing else creates.
 */
const SCOPE_PATTERN = /^system\/(\*|[A-Za-z]+)\.(read|rs|r)$/;
export const FHIR_CREATABLE = ['DiagnosticReport', 'Observation'] as const;
export type TFhirCreatable = (typeof FHIR_CREATABLE)[number];
const CREATE_SCOPE_PATTERN = /^system\/(DiagnosticReport|Observation)\.(c|write)$/;
export const ZFhirScope = z
  .string()
  .max(60)
  .refine(
    (scope) => CREATE_SCOPE_PATTERN.test(scope) || SCOPE_PATTERN.test(scope),
    'Expected a scope such as system/*.read, system/Patient.read or system/DiagnosticReport.c',
  )
  .refine((scope) => {
    if (CREATE_SCOPE_PATTERN.test(scope)) return true;
    const type = SCOPE_PATTERN.exec(scope)?.[1] ?? '';
    return type === '*' || isFhirResourceType(type);
  }, 'Unknown resource type');

/** Whether scopes let a client create a type (a lab's results). A read scope never does. */
export function scopesAllowCreate(scopes: readonly string[], type: TFhirCreatable): boolean {
  return scopes.some((scope) => CREATE_SCOPE_PATTERN.exec(scope)?.[1] === type);
}

/** Whether scopes open a resource type (read access). */
export function scopesAllow(scopes: readonly string[], type: TFhirResourceType): boolean {
  return scopes.some((scope) => {
    const match = SCOPE_PATTERN.exec(scope);
    return match !== null && (match[1] === '*' || match[1] === type);
  });
}
