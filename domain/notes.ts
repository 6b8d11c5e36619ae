export const NOTE_STATUSES = [
  'draft', 'submitted_to_scribe', 'reviewed_by_scribe', 'finalized', 'submitted_to_admin',
] as const;
export type TNoteStatus = (typeof NOTE_STATUSES)[number];

export const NOTE_TYPES = [
  'Nurse Assessment', 'Progress Note', 'Procedure Note', 'Discharge Summary',
  'Treatment Plan', 'Medication Review', 'Follow-up Note', 'Consultation Note',
] as const;
