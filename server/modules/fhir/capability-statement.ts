import type { CapabilityStatement } from '@medplum/fhirtypes';
import { FHIR_RESOURCES, FHIR_RESOURCE_TYPES, FHIR_SEARCH_PARAM_TYPES, FHIR_US_CORE_PROFILES, FHIR_VERSION } from '#domain/fhir';

const SECURITY_SERVICE = 'http://terminology.hl7.org/CodeSystem/restful-security-service';

/**
 * What this server serves, built from domain/fhir.ts, the table the routes are registered from:
 * read and search-type on each type, its search parameters, and Patient's $everything. Nothing
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
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read and search only. Authenticate with the app session or a bearer token from the token endpoint (client credentials). ' +
          'Unknown search parameters are refused (400), not ignored. Pages follow the Bundle next link.',
        security: {
          service: [
            { coding: [{ system: SECURITY_SERVICE, code: 'SMART-on-FHIR', display: 'SMART-on-FHIR' }] },
            { coding: [{ system: SECURITY_SERVICE, code: 'OAuth', display: 'OAuth' }] },
          ],
          description: `Client credentials: POST ${tokenEndpoint} with grant_type=client_credentials, client_id and client_secret; scopes system/*.read or system/{Type}.read.`,
        },
        resource: FHIR_RESOURCE_TYPES.map((type) => ({
          type,
          documentation: FHIR_RESOURCES[type].documentation,
          ...(FHIR_US_CORE_PROFILES[type] ? { supportedProfile: [...FHIR_US_CORE_PROFILES[type]] } : {}),
          interaction: [{ code: 'read' as const }, { code: 'search-type' as const }],
          searchParam: ['_id', ...FHIR_RESOURCES[type].search].map((name) => ({ name, type: FHIR_SEARCH_PARAM_TYPES[name]! })),
          ...(type === 'Patient' ? { operation: [{ name: 'everything', definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything' }] } : {}),
        })),
      },
    ],
  };
}

/** SMART's discovery document (backend services): where to get a token, and what this server takes. */
export const smartConfiguration = (tokenEndpoint: string) => ({
  token_endpoint: tokenEndpoint,
  grant_types_supported: ['client_credentials'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  // SMART v1 scopes and the v2 forms the token endpoint takes as well (read and search: `.rs`).
  scopes_supported: ['system/*.read', 'system/*.rs', ...FHIR_RESOURCE_TYPES.flatMap((type) => [`system/${type}.read`, `system/${type}.rs`])],
  capabilities: ['client-confidential-symmetric'],
});
