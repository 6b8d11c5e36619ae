import { sql, type SQL } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { seesPatientName } from './appointment-scope.ts';
import { visibleNotes } from './note-scope.ts';

export type Viewer = Pick<TCurrentUser, 'id' | 'role'>;

/**
 * What one caller may see, built once per read from domain/record-scope.ts and the permission
 * table: the `where` clauses and column choices every query of patient data takes from here
 * instead of working them out from the user itself.
 */
export interface ReadScope {
  readonly viewer: Viewer;
  /** The notes she may see (NOTE_SCOPE), as a condition on `patient_notes`. */
  readonly notes: SQL;
  /** The appointments whose patient she may name (spec section 6), as a condition on `appointments`. */
  readonly appointmentPatientNames: SQL;
  /** Whether she reads patient records, and so patients' names beside notes and rooms. */
  readonly patientNames: boolean;
  /** Whether she sees which staff an appointment is assigned to. */
  readonly staffNames: boolean;
  /** The lab orders she may see (every one for the clinical roles, none for the others), as a condition on `lab_orders`. */
  readonly labOrders: SQL;
  /**
   * The supply orders she may see (no patient data, but a supplier sees only the orders placed
   * with her): every one for those who order, her own for a supplier, as a condition on `supply_orders o`.
   */
  readonly supplyOrders: SQL;
}

export function scopeOf(viewer: Viewer): ReadScope {
  return {
    viewer: { id: viewer.id, role: viewer.role },
    notes: visibleNotes(viewer),
    appointmentPatientNames: seesPatientName(viewer),
    patientNames: can(viewer, 'patients.read'),
    staffNames: can(viewer, 'appointments.seeStaffNames'),
    labOrders: can(viewer, 'labs.read') ? sql`true` : sql`false`,
    supplyOrders: can(viewer, 'supplies.order') ? sql`true` : can(viewer, 'supplies.readOrders') ? sql`o.supplier_id = ${viewer.id}::uuid` : sql`false`,
  };
}
