export const APPOINTMENT_STATUSES = [
  'scheduled', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show',
] as const;
export type TAppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_TYPES = [
  'consultation', 'follow_up', 'urgent_care', 'physical_exam', 'lab_review',
] as const;
export type TAppointmentType = (typeof APPOINTMENT_TYPES)[number];

export const DEFAULT_APPOINTMENT_DURATION = 30;
