import { sql } from 'drizzle-orm';
import type { Group } from '@medplum/fhirtypes';
import { fhirGroupPage, readFhirGroupAudited, type TFhirGroupRow } from '../patient-groups/patient-groups.queries.ts';
import { and, common, type TFhirType } from './fhir-search.ts';

/**
 * The clinic's patient groups as FHIR `Group` (issue 53; docs/decisions/fhir.md): an actual group
 * of persons, each member a reference to her Patient, never her name. Its members are those the
 * reader sees (a restricted patient outside her reach is not there, nor counted in `quantity`),
 * and a read or search is audited as a list of patients is, naming every member shown.
 */
export function toGroupResource(row: TFhirGroupRow): Group {
  return {
    resourceType: 'Group',
    id: row.id,
    meta: { lastUpdated: row.updatedAt },
    type: 'person',
    actual: true,
    name: row.name,
    quantity: row.members.length,
    ...(row.members.length > 0 ? { member: row.members.map((m) => ({ entity: { reference: `Patient/${m.id}` }, period: { start: m.addedAt } })) } : {}),
  };
}

const memberIds = (rows: readonly TFhirGroupRow[]) => [...new Set(rows.flatMap((row) => row.members.map((m) => m.id)))];

export const groupType: TFhirType = {
  audit: { read: 'patient.list', search: 'patient.list', entityType: 'patient_group' },
  async search(reading, search) {
    const page = await fhirGroupPage(reading.db, reading.scope, and(common(search, sql`t.id`, null)), search.count, search.cursor);
    return { resources: page.rows.map(toGroupResource), patientIds: memberIds(page.rows), nextCursor: page.nextCursor };
  },
  async read(reading, id) {
    // A group shows many patients: its row, naming each, is written with the read (the reader's one-patient row could not hold them).
    const row = await readFhirGroupAudited(reading.db, reading.scope, reading.auditInStatement(), id);
    return row ? { resource: toGroupResource(row), patientId: null } : null;
  },
};
