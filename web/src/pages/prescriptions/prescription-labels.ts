import type { TPrescriptionStatus } from '#domain/prescription-statuses';
import type { TPrescriptionAlert, TPrescriptionView } from '#domain/prescriptions';
import { FREQUENCIES, type TDoseUnit, type TFrequency } from '#domain/sig';

export const PRESCRIPTION_STATUS_LABELS: Record<TPrescriptionStatus, string> = {
  draft: 'Draft',
  signed: 'Signed',
  active: 'Active',
  completed: 'Completed',
  discontinued: 'Discontinued',
  entered_in_error: 'Entered in error',
  cancelled: 'Discarded',
};

/** What each check is called where an alert shows. */
export const CHECK_LABELS: Record<TPrescriptionAlert['check'], string> = {
  allergy: 'Allergy',
  'allergy-unknown': 'Allergies not recorded',
  duplicate: 'Duplicate therapy',
  interaction: 'Interaction',
  dose: 'Dose',
};

export const SEVERITY_LABELS: Record<TPrescriptionAlert['severity'], string> = { high: 'High', moderate: 'Moderate', low: 'Low' };

/** 'Twice a day (BID)': the words, and the abbreviation prescribers know it by. */
export const FREQUENCY_LABELS = Object.fromEntries(
  Object.entries(FREQUENCIES).map(([code, { words }]) => [
    code,
    `${words[0]!.toUpperCase()}${words.slice(1)}${/^q|^[bt]id$|^qid$/.test(code) ? ` (${code.toUpperCase()})` : ''}`,
  ]),
) as Record<TFrequency, string>;

export const unitLabels = (units: readonly TDoseUnit[]) => Object.fromEntries(units.map((u) => [u, u])) as Record<TDoseUnit, string>;

export const VIEW_LABELS: Record<TPrescriptionView, string> = { to_sign: 'To sign', prepared: 'Prepared by me', active: 'Active', recent: 'Recent' };
