/**
 * Where a prescription stands (issue 52), in a module of its own: the workflow table
 * (domain/workflows.ts) and the audit trail's actions ride with every screen, the prescription
 * schemas must not. A draft anyone who prepares writes; signed by a prescriber (the checks run
 * again); active once printed or sent; then completed, discontinued with a reason, or
 * entered-in-error. A draft nobody will sign is cancelled. Nothing is deleted, and a signed one
 * is never edited: it is replaced (PRESCRIPTION_WORKFLOW).
 */
export const PRESCRIPTION_STATUSES = ['draft', 'signed', 'active', 'completed', 'discontinued', 'entered_in_error', 'cancelled'] as const;
export type TPrescriptionStatus = (typeof PRESCRIPTION_STATUSES)[number];
