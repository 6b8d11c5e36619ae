// Types only from appointments.ts: its schemas would otherwise ride along into every screen
// that names a visit's type. A type added there fails the type check here until it has its label.
import type { TAppointmentType } from './appointments.ts';

export const APPOINTMENT_TYPE_LABELS: Record<TAppointmentType, string> = {
  consultation: 'Consultation',
  follow_up: 'Follow-up',
  urgent_care: 'Urgent care',
  physical_exam: 'Physical exam',
  lab_review: 'Lab review',
};

/** 'Follow-up' for follow_up; `fallback` when no type is set ('General' on the appointments screen and in reports). */
export function appointmentTypeLabel(type: string | null, fallback = 'General'): string {
  if (!type) return fallback;
  return (APPOINTMENT_TYPE_LABELS as Record<string, string>)[type] ?? type;
}
