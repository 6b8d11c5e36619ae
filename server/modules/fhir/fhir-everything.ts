import type { Bundle, Resource } from '@medplum/fhirtypes';
import { FHIR_RESOURCES, type TFhirResourceType } from '#domain/fhir';
import { can } from '#domain/permissions';
import { readOf, type Reading } from '../../scope/reader.ts';
import { FHIR_TYPES } from './fhir-types.ts';

/** What a patient's whole record holds, in the order a reader expects it. */
const EVERYTHING: readonly TFhirResourceType[] = [
  'AllergyIntolerance',
  'Condition',
  'MedicationRequest',
  'Appointment',
  'Encounter',
  'DocumentReference',
  'ServiceRequest',
  'DiagnosticReport',
  'Observation',
];

/** Rows per internal page: large, since the whole record is wanted, but each query stays bounded. */
const BATCH = 500;

export interface TEverything {
  patient: Resource;
  resources: Resource[];
}

/**
 * `Patient/{id}/$everything`: the patient and everything about her that the reader may see,
 * each type read exactly as its own search reads it (same scope, same mapping), all of it. A
 * type outside her role (or her token's scopes) is left out, as the app leaves out its screen.
 * An amended note's earlier versions come with it, so its `relatesTo` resolves in the bundle.
 */
export const PATIENT_EVERYTHING = readOf({
  action: 'patient.export',
  entityType: 'patient',
  async run(reading: Reading, args: { id: string; allows: (type: TFhirResourceType) => boolean }): Promise<TEverything | null> {
    if (!args.allows('Patient')) return null;
    const patient = await FHIR_TYPES.Patient.read(reading, args.id);
    if (!patient) return null;
    const resources: Resource[] = [];
    for (const type of EVERYTHING) {
      if (!can(reading.scope.viewer, FHIR_RESOURCES[type].capability) || !args.allows(type)) continue;
      let cursor: string | null = null;
      do {
        const search = { ids: null, count: BATCH, cursor, params: new Map([['patient', [args.id]]]), earlierVersions: true };
        const found = await FHIR_TYPES[type].search(reading, search);
        resources.push(...found.resources);
        cursor = found.nextCursor;
      } while (cursor);
    }
    return { patient: patient.resource, resources };
  },
  shows: (_result, args) => ({ entityId: args.id, patientId: args.id }),
});

export const everythingBundle = (base: string, everything: TEverything): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: 1 + everything.resources.length,
  entry: [everything.patient, ...everything.resources].map((resource) => ({
    fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode: resource === everything.patient ? ('match' as const) : ('include' as const) },
  })),
});
