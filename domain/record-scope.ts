import type { TNoteStatus } from './notes.ts';
import { can, type TCapability } from './permissions.ts';
import type { TRole } from './roles.ts';

/**
 * Which records, and which fields of them, a user may see or change. Each rule is data written
 * once here: the server turns it into `where` clauses and column choices (a record out of scope
 * is a 404), and the web runs the same functions to hide what the user may not do.
 */

/**
 * Notes a role sees (spec section 4): any note matching one of the clauses. An empty list
 * means none at all.
 */
export interface TNoteScopeClause {
  /** Notes this user wrote. */
  authoredBySelf?: true;
  /** Notes in one of these statuses. */
  statusIn?: readonly TNoteStatus[];
  /** Notes this user reviewed as scribe. */
  scribedBySelf?: true;
}

export const NOTE_SCOPE: Record<TRole, readonly TNoteScopeClause[]> = {
  nurse: [{ authoredBySelf: true }, { statusIn: ['draft'] }],
  scribe: [{ statusIn: ['submitted_to_scribe', 'reviewed_by_scribe'] }, { scribedBySelf: true }],
  // Also the reviewed notes they are to finalize (spec section 4's 'Finalize Note'), which the
  // spec's list would hide from them (docs/decisions/notes.md).
  // An admin also writes notes ('Create New Note'): like a nurse, she sees her own.
  admin: [{ statusIn: ['reviewed_by_scribe', 'finalized', 'submitted_to_admin'] }, { authoredBySelf: true }],
  scheduler: [{ statusIn: ['reviewed_by_scribe', 'finalized', 'submitted_to_admin'] }],
  supplier: [],
};

export function noteVisibleTo(user: { id: string; role: TRole }, note: { authorId: string; status: TNoteStatus; scribeId: string | null }): boolean {
  return NOTE_SCOPE[user.role].some(
    (clause) =>
      (clause.authoredBySelf === true && note.authorId === user.id) ||
      (clause.statusIn?.includes(note.status) ?? false) ||
      (clause.scribedBySelf === true && note.scribeId === user.id),
  );
}

/**
 * Spec section 6: an appointment's patient name goes to those who see every patient's name
 * (`appointments.seeAllPatientNames`: scheduler and admin), and to the nurse or scribe assigned
 * to that appointment; everyone else sees 'Patient #' and the id's last four. The server adds
 * a restricted patient's care team and grant holders, for all her visits (ReadScope,
 * appointmentPatientNames).
 */
export function seesAppointmentPatientName(
  user: { id: string; role: TRole },
  appointment: { assignedNurseId: string | null; assignedScribeId: string | null },
): boolean {
  return can(user, 'appointments.seeAllPatientNames') || appointment.assignedNurseId === user.id || appointment.assignedScribeId === user.id;
}

/** 'Patient #' plus the last four characters of the id: the label for those without the name. */
export const patientLabel = (patientId: string) => `Patient #${patientId.slice(-4)}`;

/**
 * Fields of a patient record that need more than `patients.write` to change. Sending one
 * unchanged (a record read back and sent again) needs nothing.
 */
export const PATIENT_FIELD_CAPABILITY: Partial<Record<string, TCapability>> = { isActive: 'patients.deactivate' };

export function mayChangePatientField(user: { role: TRole }, field: string): boolean {
  const capability = PATIENT_FIELD_CAPABILITY[field];
  return capability ? can(user, capability) : true;
}

/**
 * Restricted records (issue 33; docs/decisions/restricted-records.md). An admin may mark a
 * patient restricted and name her care team; everyone else sees 'Restricted patient' and
 * nothing of her record, everywhere, unless she opens it by break-glass: that one patient, for a
 * time, every read and write tagged in the audit trail and reviewed by an admin.
 */
export const RESTRICTED_PATIENT_LABEL = 'Restricted patient';

export const BREAK_GLASS = {
  /** How long a grant lasts unless the user asks for less or more. */
  defaultMinutes: 60,
  minMinutes: 5,
  maxMinutes: 240,
  minJustification: 20,
  maxJustification: 2000,
} as const;

export const BREAK_GLASS_REASONS = ['emergency_care', 'patient_request', 'continuity_of_care', 'legal_or_safety', 'other'] as const;
export type TBreakGlassReason = (typeof BREAK_GLASS_REASONS)[number];
export const BREAK_GLASS_REASON_LABELS: Record<TBreakGlassReason, string> = {
  emergency_care: 'Emergency care',
  patient_request: "At the patient's request",
  continuity_of_care: 'Continuity of care',
  legal_or_safety: 'Legal or safety obligation',
  other: 'Other',
};

export const BREAK_GLASS_DISPOSITIONS = ['appropriate', 'inappropriate', 'follow_up'] as const;
export type TBreakGlassDisposition = (typeof BREAK_GLASS_DISPOSITIONS)[number];

/**
 * Whether a user sees a patient's record: every patient who is not restricted; a restricted one
 * only from her care team or under a break-glass grant still running. The server holds the same
 * rule as a condition on every read (server/scope/read-scope.ts `patientSeen`).
 */
export function seesPatient(
  user: { id: string },
  patient: { restricted: boolean; careTeam: readonly string[]; grants: readonly { userId: string; startedAt: string; expiresAt: string }[] },
  now: Date,
): boolean {
  if (!patient.restricted || patient.careTeam.includes(user.id)) return true;
  return patient.grants.some((g) => g.userId === user.id && Date.parse(g.startedAt) <= now.getTime() && Date.parse(g.expiresAt) > now.getTime());
}
