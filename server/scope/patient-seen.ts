import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { ReadScope } from './read-scope.ts';

/**
 * A change about a patient (her record, an appointment, a note, a lab order, a room) is made
 * only by someone who sees her: a restricted patient outside the caller's reach answers 403
 * `record.restricted` (she may ask for emergency access), as her record's read does.
 */
export async function assertPatientSeen(q: Queryable, scope: Pick<ReadScope, 'patientSeen'>, patientId: string): Promise<void> {
  if (!(await patientIsSeen(q, scope, patientId))) throw new HttpError('record.restricted');
}

/**
 * Whether the caller sees the patient: for a change to a record of hers (a note, a lab order)
 * that the caller's reads would not find, which answers 404 as the read does.
 */
export async function patientIsSeen(q: Queryable, scope: Pick<ReadScope, 'patientSeen'>, patientId: string): Promise<boolean> {
  const rows = await queryRows<{ seen: boolean }>(q, sql`select ${scope.patientSeen(sql`${patientId}::uuid`)} as seen`);
  return rows[0]?.seen !== false;
}
