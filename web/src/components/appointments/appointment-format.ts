// Types only from domain/appointments: its schemas would otherwise ride along into the
// dashboard's chunk. Each table below is a Record over the domain's own union, so a status or
// type added there fails the type check here until it has its label.
import type { TAppointment, TAppointmentConflictKind, TAppointmentStatus } from '#domain/appointments';
import { patientLabel, RESTRICTED_PATIENT_LABEL } from '#domain/record-scope';

/**
 * The patient as this reader may see them: the name when the server sent it, 'Restricted
 * patient' for a restricted record outside her reach, else 'Patient #' and the id's last four.
 */
export const patientShown = (appointment: Pick<TAppointment, 'patientRef' | 'patientName' | 'patientRestricted'>) =>
  appointment.patientName ?? (appointment.patientRestricted ? RESTRICTED_PATIENT_LABEL : patientLabel(appointment.patientRef));

export { appointmentTypeLabel } from '#domain/appointment-labels';

/** The room, or 'TBD' when none is set (spec section 3). */
export const roomLabel = (room: string | null) => (room ? `Room ${room}` : 'Room TBD');

export const STATUS_LABELS: Record<TAppointmentStatus, string> = {
  scheduled: 'Scheduled',
  checked_in: 'Checked in',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-show',
};

export const CONFLICT_KIND_LABELS: Record<TAppointmentConflictKind, string> = { patient: 'Patient', room: 'Room', nurse: 'Nurse', scribe: 'Scribe' };

/** Spec section 4: an unknown status is displayed as scheduled. */
export function knownStatus(status: string): TAppointmentStatus {
  return Object.hasOwn(STATUS_LABELS, status) ? (status as TAppointmentStatus) : 'scheduled';
}
