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
 * Medplum's validator and the written-out US Core checks), named in `metadata`'s supportedProfile.
 * Only these: a profile named is a promise a partner's tool will hold us to.
 */
export const FHIR_US_CORE_PROFILES: Partial<Record<string, readonly string[]>> = {
  Patient: [`${US_CORE}/us-core-patient`],
  AllergyIntolerance: [`${US_CORE}/us-core-allergyintolerance`],
  Condition: [`${US_CORE}/us-core-condition-problems-health-concerns`],
  MedicationRequest: [`${US_CORE}/us-core-medicationrequest`],
  Observation: [`${US_CORE}/us-core-vital-signs`, `${US_CORE}/us-core-blood-pressure`, `${US_CORE}/us-core-bmi`],
};

export const FHIR_RESOURCES = {
  Patient: {
    capability: 'patients.read',
    search: ['name', 'birthdate', 'identifier'],
    documentation: 'Active patients in search; any patient by id. name matches the start of the first or last name, or of "first last".',
  },
  Practitioner: { capability: 'users.readDirectory', search: [], documentation: "The clinic's staff accounts." },
  Organization: { capability: 'dashboard.view', search: [], documentation: 'The clinic itself (one resource).' },
  Appointment: { capability: 'appointments.read', search: ['patient', 'date', 'status'], documentation: 'Every appointment, in time order.' },
  Encounter: { capability: 'appointments.read', search: ['patient', 'date'], documentation: 'Completed visits, in time order.' },
  DocumentReference: {
    capability: 'notes.read',
    search: ['patient'],
    documentation: 'Finalized clinical notes the reader may see, text as a plain-text attachment; an amended note relates to (replaces) its earlier version.',
  },
  ServiceRequest: { capability: 'labs.read', search: ['patient'], documentation: 'Lab orders.' },
  DiagnosticReport: { capability: 'labs.read', search: ['patient'], documentation: 'The results of lab orders that have them.' },
  Observation: {
    capability: 'labs.read',
    search: ['patient', 'category'],
    documentation:
      'Laboratory results, one per analyte, with reference range and interpretation; and, for readers of the chart, vital signs (category vital-signs), one per sign of each set, blood pressure as one panel.',
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
} as const satisfies Record<string, TFhirResourceRule>;

export type TFhirResourceType = keyof typeof FHIR_RESOURCES;
export const FHIR_RESOURCE_TYPES = Object.keys(FHIR_RESOURCES) as TFhirResourceType[];
export const isFhirResourceType = (value: string): value is TFhirResourceType => Object.hasOwn(FHIR_RESOURCES, value);

/** Parameters every search takes: `_id` and the page size (and the opaque cursor of a `next` link). */
export const FHIR_COMMON_SEARCH = ['_id', '_count'] as const;

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
};
export const FHIR_PAGE = { default: 20, max: 100 } as const;

/**
 * An API client's scopes (SMART v1 `system/Patient.read` or v2 `system/Patient.rs`, or `*` for
 * every type). Reading is all the API does, so a scope is a list of the types it opens.
 */
const SCOPE_PATTERN = /^system\/(\*|[A-Za-z]+)\.(read|rs|r)$/;
export const ZFhirScope = z
  .string()
  .max(60)
  .regex(SCOPE_PATTERN, 'Expected a scope such as system/*.read or system/Patient.read')
  .refine((scope) => {
    const type = SCOPE_PATTERN.exec(scope)?.[1] ?? '';
    return type === '*' || isFhirResourceType(type);
  }, 'Unknown resource type');

/** Whether scopes open a resource type (read access). */
export function scopesAllow(scopes: readonly string[], type: TFhirResourceType): boolean {
  return scopes.some((scope) => {
    const match = SCOPE_PATTERN.exec(scope);
    return match !== null && (match[1] === '*' || match[1] === type);
  });
}
