import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { auditEvents } from '../../db/schema/auth.ts';

/**
 * Every recorded access to one patient, newest first: events about the patient itself and the
 * list requests that showed them. One indexed query (patient_id, and the GIN index on
 * patient_ids), however many patients each list showed.
 */
export function auditTrailOfPatient(q: Queryable, patientId: string, action?: string) {
  const about = or(eq(auditEvents.patientId, patientId), sql`${auditEvents.patientIds} @> array[${patientId}]::uuid[]`);
  return q.select().from(auditEvents)
    .where(action ? and(about, eq(auditEvents.action, action)) : about)
    .orderBy(desc(auditEvents.at));
}
