import { sql, type SQL } from 'drizzle-orm';
import type { Resource } from '@medplum/fhirtypes';
import type { TAuditEntityType, TReadAction } from '#domain/audit';
import type { Reading } from '../../scope/reader.ts';
import { patientParam, type TSearchBase } from './fhir-params.ts';
import { idIn, type TPage } from './fhir.queries.ts';

/**
 * What every FHIR type's reads share (fhir-types.ts, fhir-chart-types.ts): the shape of a type,
 * of a search's answer, and the conditions and pages every search builds from.
 */

/** One search's answer: the page's resources, whom they are about (for the audit row), and the next page. */
export interface TFoundPage {
  resources: Resource[];
  patientIds: string[];
  nextCursor: string | null;
  /** What `_revinclude` asked for beside them (their Provenance), entries of search mode 'include'. */
  included?: Resource[];
}

/**
 * How each resource type is read and searched, over the app's tables, in the reader's scope.
 * `audit` names the audit actions of the app's own reads of the same data, so "who saw patient
 * X" finds a FHIR read beside a screen's.
 */
export interface TFhirType {
  audit: { read: TReadAction; search: TReadAction; entityType: TAuditEntityType } | null;
  search(reading: Reading, search: TSearchBase): Promise<TFoundPage>;
  read(reading: Reading, id: string): Promise<{ resource: Resource; patientId: string | null } | null>;
  /** The ids it gives (a uuid unless said): any other id is a 404 before a query. */
  ids?: RegExp;
}

export const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const NO_MATCH = sql`false`;
export const and = (parts: SQL[]) => (parts.length === 0 ? sql`true` : sql.join(parts, sql` and `));

/** `_id` and `patient` (and a bulk export's patients) as conditions on the id and patient columns; a Patient's patient column is its id. */
export function common(search: TSearchBase, id: SQL, patient: SQL | null): SQL[] {
  const parts: SQL[] = [];
  if (search.ids) parts.push(search.ids.length ? idIn(id, search.ids) : NO_MATCH);
  if (patient) {
    const p = patientParam(search.params);
    if (p.given) parts.push(p.id ? sql`${patient} = ${p.id}::uuid` : NO_MATCH);
    if (search.bulk?.patientsIn) parts.push(sql`${patient} in (${search.bulk.patientsIn})`);
  }
  return parts;
}

export const pageOf = <R>(page: TPage<R>, toResource: (row: R) => Resource | Resource[], patientOf: (row: R) => string | null): TFoundPage => ({
  resources: page.rows.flatMap(toResource),
  patientIds: [...new Set(page.rows.map(patientOf).filter((id): id is string => id !== null))],
  nextCursor: page.nextCursor,
});

export const one = <R>(page: TPage<R>, toResource: (row: R) => Resource, patientOf: (row: R) => string | null) => {
  const row = page.rows[0];
  return row ? { resource: toResource(row), patientId: patientOf(row) } : null;
};
