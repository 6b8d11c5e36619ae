export const NOTE_STATUSES = [
  'draft', 'submitted_to_scribe', 'reviewed_by_scribe', 'finalized', 'submitted_to_admin',
] as const;
export type TNoteStatus = (typeof NOTE_STATUSES)[number];
