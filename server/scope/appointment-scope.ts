import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { appointments } from '../db/schema/clinical.ts';

/**
 * Whether this user receives an appointment's patient name (spec section 6), as a SQL
 * condition on the appointment row: the server selects the name only where it holds, so no
 * response ever carries a name its reader may not see. Same rule as the web's
 * `seesAppointmentPatientName`.
 */
export function seesPatientName(user: Pick<TCurrentUser, 'id' | 'role'>): SQL {
  if (can(user, 'appointments.seeAllPatientNames')) return sql`true`;
  return or(eq(appointments.assignedNurseId, user.id), eq(appointments.assignedScribeId, user.id))!;
}
