import { ASSERTION_ALGORITHMS } from '#domain/api-clients';
import type { CapabilityStatement } from '@medplum/fhirtypes';
import {
  FHIR_CREATABLE,
  FHIR_RESOURCES,
  FHIR_RESOURCE_TYPES,
  FHIR_REV_INCLUDES,
  FHIR_SEARCH_PARAM_TYPES,
  FHIR_US_CORE_PROFILES,
  FHIR_VERSION,
} from '#domain/fhir';

const SECURITY_SERVICE = 'http://terminology.hl7.org/CodeSystem/restful-security-service';
const BULK_DATA = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition';

/** The operations served on a type: Patient's $everything, and the Bulk Data exports of all patients and of a group. */
const TYPE_OPERATIONS: Partial<Record<string, { name: string; definition: string }[]>> = {
  Patient: [
    { name: 'everything', definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything' },
    { name: 'export', definition: `${BULK_DATA}/patient-export` },
  ],
  Group: [{ name: 'export', definition: `${BULK_DATA}/group-export` }],
};

/**
 * What this server serves, built from domain/fhir.ts, the table the routes are registered from:
 * read and search-type on each type, its search parameters, Patient's $everything and the bulk exports. Nothing
 * is declared that is not served (a test walks it against the routes).
 */
export function capabilityStatement(base: string, tokenEndpoint: string, clinicName: string, now: Date): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString(),
    kind: 'instance',
    software: { name: 'Clinic EHR' },
    implementation: { description: `${clinicName}: FHIR R4 read API`, url: base },
    // Bulk Data Access 2.0's server: $export at system, Patient and Group level (bulk-export.routes.ts).
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read and search; the one write is a lab sending results (create DiagnosticReport or Observation, or a transaction Bundle of them, ' +
          'with a create scope: filed to the order its basedOn names, or kept for a person; docs/decisions/lab-interfaces.md). ' +
          'Authenticate with the app session or a bearer token from the token endpoint (client credentials). ' +
          'Unknown search parameters are refused (400), not ignored. Pages follow the Bundle next link.',
        security: {
          service: [
            { coding: [{ system: SECURITY_SERVICE, code: 'SMART-on-FHIR', display: 'SMART-on-FHIR' }] },
            { coding: [{ system: SECURITY_SERVICE, code: 'OAuth', display: 'OAuth' }] },
          ],
          // SMART's own place for the token endpoint, which clients that read only metadata look for.
          extension: [{ url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris', extension: [{ url: 'token', valueUri: tokenEndpoint }] }],
          description:
            `Client credentials: POST ${tokenEndpoint} with grant_type=client_credentials, and client_id and client_secret, or a client_assertion ` +
            'signed RS384 or ES384 (SMART Backend Services); scopes system/*.read or system/{Type}.read (or .rs).',
        },
        interaction: [{ code: 'transaction', documentation: "A lab's results: one DiagnosticReport with its Observations and the Patient." }],
        operation: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' }],
        resource: FHIR_RESOURCE_TYPES.map((type) => ({
          type,
          documentation: FHIR_RESOURCES[type].documentation,
          ...(FHIR_US_CORE_PROFILES[type] ? { supportedProfile: [...FHIR_US_CORE_PROFILES[type]] } : {}),
          interaction: [
            { code: 'read' as const },
            { code: 'search-type' as const },
            ...((FHIR_CREATABLE as readonly string[]).includes(type) ? [{ code: 'create' as const }] : []),
          ],
          searchRevInclude: [...FHIR_REV_INCLUDES],
          searchParam: ['_id', ...FHIR_RESOURCES[type].search].map((name) => ({ name, type: FHIR_SEARCH_PARAM_TYPES[name]! })),
          ...(TYPE_OPERATIONS[type] ? { operation: TYPE_OPERATIONS[type] } : {}),
        })),
      },
    ],
  };
}

/** SMART's discovery document (backend services): where to get a token, and what this server takes. */
export const smartConfiguration = (tokenEndpoint: string) => ({
  token_endpoint: tokenEndpoint,
  grant_types_supported: ['client_credentials'],
  // SMART Backend Services' asymmetric authentication, and a secret for clinics that keep it simple.
  token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic', 'client_secret_post'],
  token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
  // SMART v1 scopes and the v2 forms the token endpoint takes as well (read and search: `.rs`).
  scopes_supported: [
    'system/*.read',
    'system/*.rs',
    ...FHIR_RESOURCE_TYPES.flatMap((type) => [`system/${type}.read`, `system/${type}.rs`]),
    ...FHIR_CREATABLE.flatMap((type) => [`system/${type}.c`, `system/${type}.write`]),
  ],
  capabilities: ['client-confidential-asymmetric', 'client-confidential-symmetric', 'permission-v1', 'permission-v2'],
});
