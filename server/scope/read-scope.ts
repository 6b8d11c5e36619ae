import { sql, type SQL } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { seesPatientName } from './appointment-scope.ts';
import { visibleNotes } from './note-scope.ts';

export type Viewer = Pick<TCurrentUser, 'id' | 'role'>;

/**
 * Who is reading, for her scope: the user, and whether any restricted patient may be hers to see
 * (she is on a care team, or holds a break-glass grant: read with her session). Most users are
 * neither, and for them a restricted patient is simply not there.
 */
export interface ScopeViewer {
  user: Viewer;
  restrictedReach?: boolean | undefined;
}

/**
 * What one caller may see, built once per read from domain/record-scope.ts and the permission
 * table: the `where` clauses and column choices every query of patient data takes from here
 * instead of working them out from the user itself.
 */
export interface ReadScope {
  readonly viewer: Viewer;
  /** The notes she may see (NOTE_SCOPE, of patients she sees), as a condition on `patient_notes`. */
  readonly notes: SQL;
  /**
   * The appointments whose patient she may name, as a condition on `appointments`: spec section
   * 6 (her assigned visits, or all for schedulers and admins), and every visit of a restricted
   * patient she reaches (care team, running grant).
   */
  readonly appointmentPatientNames: SQL;
  /** Whether she reads patient records, and so patients' names beside notes and rooms. */
  readonly patientNames: boolean;
  /** Whether she sees which staff an appointment is assigned to. */
  readonly staffNames: boolean;
  /** The lab orders she may see (of every patient she sees for the clinical roles, none for the others), as a condition on `lab_orders`. */
  readonly labOrders: SQL;
  /** The prescriptions she may read (of every patient she sees, for those who read them), as a condition on `prescriptions p`. */
  readonly prescriptions: SQL;
  /**
   * The supply orders she may see (no patient data, but a supplier sees only the orders placed
   * with her): every one for those who order, her own for a supplier, as a condition on `supply_orders o`.
   */
  readonly supplyOrders: SQL;
  /**
   * Whether she sees the patient a row is about (domain/record-scope.ts `seesPatient`): every
   * patient not restricted; a restricted one from her care team or under a grant running now.
   * A condition on the row's patient id; rows about a patient she does not see are not there.
   */
  patientSeen(patientId: SQL): SQL;
  /**
   * The same on a row of `patients` itself (its alias): the row's own column, which costs
   * nothing beside the row already read, where `patientSeen` would look the patient up again.
   */
  patientRowSeen(alias: SQL): SQL;
  /** Whether restricted patients may be hers to see: a shared answer built without them does not serve her. */
  readonly restrictedReach: boolean;
}

/** A restricted patient the user reaches: on her care team, or under a grant running at `now`. */
export const reachesPatient = (userId: SQL, patient: SQL, now: Date) =>
  sql`(exists (select 1 from patient_care_team ct where ct.patient_id = ${patient} and ct.user_id = ${userId})
    or exists (select 1 from break_glass_grants bg where bg.patient_id = ${patient} and bg.user_id = ${userId}
      and bg.started_at <= ${now.toISOString()}::timestamptz and bg.expires_at > ${now.toISOString()}::timestamptz))`;

/** Whether the user sees the patient (any user, by an id column: the live hub's audiences). */
export const userSeesPatient = (userId: SQL, patient: SQL, now: Date) =>
  sql`not exists (select 1 from patients rp where rp.id = ${patient} and rp.restricted_at is not null and not ${reachesPatient(userId, sql`rp.id`, now)})`;

export function scopeOf({ user: viewer, restrictedReach = false }: ScopeViewer, now: Date): ReadScope {
  // The partial index on restricted patients answers "is it restricted" without touching the rest.
  const patientSeen = (patientId: SQL) =>
    restrictedReach
      ? userSeesPatient(sql`${viewer.id}::uuid`, patientId, now)
      : sql`not exists (select 1 from patients rp where rp.id = ${patientId} and rp.restricted_at is not null)`;
  return {
    viewer: { id: viewer.id, role: viewer.role },
    restrictedReach,
    patientSeen,
    patientRowSeen: (alias) =>
      restrictedReach
        ? sql`(${alias}.restricted_at is null or ${reachesPatient(sql`${viewer.id}::uuid`, sql`${alias}.id`, now)})`
        : sql`${alias}.restricted_at is null`,
    // A restricted patient's notes and lab orders are not there for those outside her reach.
    notes: sql`(${visibleNotes(viewer)}) and ${patientSeen(sql`patient_notes.patient_id`)}`,
    // Spec section 6's rule, and (issue 50) a restricted patient's care team and those under a
    // grant running now: entrusted with her whole record, they see her name on all her visits.
    appointmentPatientNames: restrictedReach
      ? sql`(${seesPatientName(viewer)} or exists (select 1 from patients rp where rp.id = appointments.patient_id and rp.restricted_at is not null
          and ${reachesPatient(sql`${viewer.id}::uuid`, sql`rp.id`, now)}))`
      : seesPatientName(viewer),
    patientNames: can(viewer, 'patients.read'),
    staffNames: can(viewer, 'appointments.seeStaffNames'),
    labOrders: can(viewer, 'labs.read') ? patientSeen(sql`lab_orders.patient_id`) : sql`false`,
    prescriptions: can(viewer, 'prescriptions.read') ? patientSeen(sql`p.patient_id`) : sql`false`,
    supplyOrders: can(viewer, 'supplies.order') ? sql`true` : can(viewer, 'supplies.readOrders') ? sql`o.supplier_id = ${viewer.id}::uuid` : sql`false`,
  };
}
