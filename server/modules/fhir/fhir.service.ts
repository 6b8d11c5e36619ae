import type { Resource } from '@medplum/fhirtypes';
import { FHIR_RESOURCE_TYPES, type TFhirResourceType } from '#domain/fhir';
import { plainReadOf, readOf, type PlainReadOf, type ReadOf } from '../../scope/reader.ts';
import type { TSearchBase } from './fhir-params.ts';
import { FHIR_TYPES } from './fhir-types.ts';
import type { TFoundPage } from './fhir-search.ts';

export { PATIENT_EVERYTHING } from './fhir-everything.ts';

type TFound = { resource: Resource; patientId: string | null };
type TRead<A, R> = ReadOf<A, R> | PlainReadOf<A, R>;

/**
 * Each type's read and search, declared like every module's reads: the scoped reader runs them
 * in the caller's scope and audits those of patient data with the actions of the app's own
 * screens (so "who saw patient X" finds a FHIR read beside a screen's). Staff and the clinic
 * show no patient: their reads write no row.
 */
export const FHIR_READS = Object.fromEntries(FHIR_RESOURCE_TYPES.map((type) => [type, typeReads(type)])) as Record<
  TFhirResourceType,
  { search: TRead<TSearchBase, TFoundPage>; read: TRead<string, TFound> }
>;

function typeReads(type: TFhirResourceType) {
  const handler = FHIR_TYPES[type];
  const audit = handler.audit;
  const notFound = `${type} not found`;
  if (!audit) {
    return {
      search: plainReadOf({ shows: 'no patient data', run: (reading, search: TSearchBase) => handler.search(reading, search) }),
      read: plainReadOf({ shows: 'no patient data', notFound, run: (reading, id: string) => handler.read(reading, id) }),
    };
  }
  return {
    search: readOf({
      action: audit.search,
      entityType: audit.entityType,
      run: (reading, search: TSearchBase) => handler.search(reading, search),
      shows: (found) => (found.patientIds.length ? { patientIds: found.patientIds } : null),
    }),
    read: readOf({
      action: audit.read,
      entityType: audit.entityType,
      notFound,
      run: (reading, id: string) => handler.read(reading, id),
      shows: (found, id) => ({ entityId: `${type}/${id}`, patientId: found.patientId }),
    }),
  };
}
