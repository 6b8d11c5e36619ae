import type { TAllergy, TMedication, TProblem } from '#domain/chart';

/** How the chart writes its codes for people. */
export const ALLERGY_CATEGORY_LABELS: Record<TAllergy['category'], string> = {
  medication: 'Medication',
  food: 'Food',
  environment: 'Environment',
  biologic: 'Biologic',
};
export const ALLERGY_TYPE_LABELS: Record<TAllergy['type'], string> = { allergy: 'Allergy', intolerance: 'Intolerance' };
export const SEVERITY_LABELS: Record<NonNullable<TAllergy['severity']>, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };
export const CRITICALITY_LABELS: Record<TAllergy['criticality'], string> = { low: 'Low', high: 'High', unable_to_assess: 'Not assessed' };
export const ALLERGY_STATUS_LABELS: Record<TAllergy['status'], string> = {
  active: 'Active',
  inactive: 'Inactive',
  resolved: 'Resolved',
  entered_in_error: 'Entered in error',
};

export const PROBLEM_STATUS_LABELS: Record<TProblem['clinicalStatus'], string> = {
  active: 'Active',
  recurrence: 'Recurrence',
  relapse: 'Relapse',
  inactive: 'Inactive',
  remission: 'Remission',
  resolved: 'Resolved',
};
export const VERIFICATION_LABELS: Record<TProblem['verification'], string> = {
  provisional: 'Provisional',
  confirmed: 'Confirmed',
  refuted: 'Refuted',
  entered_in_error: 'Entered in error',
};
export const MEDICATION_STATUS_LABELS: Record<TMedication['status'], string> = {
  active: 'Active',
  on_hold: 'On hold',
  stopped: 'Stopped',
  entered_in_error: 'Entered in error',
};
export const MEDICATION_SOURCE_LABELS: Record<TMedication['source'], string> = {
  prescribed_here: 'Prescribed here',
  patient_reported: 'Reported by the patient',
  outside_record: 'From an outside record',
};
