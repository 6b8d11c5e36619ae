/**
 * A lab value's flag, computed from the clinic's test catalogue (issue 30). One rule, written once:
 * the server computes every stored flag with it, and the web shows the same.
 *
 * - The range that applies is the most specific one of the analyte for the patient: her sex
 *   (a range for her sex beats one for any sex), and her age at collection within the range's
 *   band [ageFrom, ageTo) in whole years; among equals the narrower band wins. No range applies:
 *   no flag can be computed (null), and the value is shown without one.
 * - Normal is the reference range with both ends included: low <= value <= high ('N').
 * - Below low is 'L', above high is 'H'; at or beyond a critical limit is 'LL' (value <=
 *   criticalLow) or 'HH' (value >= criticalHigh): critical limits are where a clinician must be
 *   called, and labs publish them as 'at or below' / 'at or above'.
 * - Either end of either range may be missing (a range with only an upper limit).
 * - 'A' (abnormal) is for text results: entered by hand, or sent by a lab, never computed.
 * - 'AA' (critically abnormal) is only ever a lab's (HL7 table 0078): a text result the lab calls
 *   critical, such as a positive blood culture. It is critical as LL and HH are (issue 54).
 */
export const LAB_FLAGS = ['N', 'L', 'H', 'LL', 'HH', 'A', 'AA'] as const;
export type TLabFlag = (typeof LAB_FLAGS)[number];

/** Flags that need a clinician now (LL, HH): the critical alert, escalated if nobody acknowledges it. */
export const isCritical = (flag: TLabFlag | null | undefined) => flag === 'LL' || flag === 'HH' || flag === 'AA';
/** Anything but normal: shown first in the review queue, and coloured. */
export const isAbnormal = (flag: TLabFlag | null | undefined) => flag !== null && flag !== undefined && flag !== 'N';
/** The most severe of the flags sent for one value (a lab may send several): none only when none says anything. */
export const mostSevereFlag = (flags: readonly (TLabFlag | null)[]): TLabFlag | null =>
  flags.reduce<TLabFlag | null>((worst, flag) => (flag !== null && (worst === null || flagRank(flag) > flagRank(worst)) ? flag : worst), null);
/** How much a flag asks of a clinician: 2 critical, 1 abnormal, 0 normal or none (an order's worst flag is its highest). */
export const flagRank = (flag: TLabFlag | null | undefined): 0 | 1 | 2 => (isCritical(flag) ? 2 : isAbnormal(flag) ? 1 : 0);

export const LAB_SEXES = ['female', 'male'] as const;
export type TLabSex = (typeof LAB_SEXES)[number];

export interface TLabRange {
  /** null: any sex. */
  sex: TLabSex | null;
  /** Whole years, inclusive; null: from birth. */
  ageFrom: number | null;
  /** Whole years, exclusive; null: no upper age. */
  ageTo: number | null;
  low: number | null;
  high: number | null;
  criticalLow: number | null;
  criticalHigh: number | null;
}

export interface TLabSubject {
  /** null when the record does not say: only ranges for any sex apply. */
  sex: TLabSex | null;
  /** null when the date of birth is unknown: only ranges without an age band apply. */
  ageYears: number | null;
}

function applies(range: TLabRange, subject: TLabSubject): boolean {
  if (range.sex !== null && range.sex !== subject.sex) return false;
  if (range.ageFrom === null && range.ageTo === null) return true;
  if (subject.ageYears === null) return false;
  return (range.ageFrom === null || subject.ageYears >= range.ageFrom) && (range.ageTo === null || subject.ageYears < range.ageTo);
}

const bandWidth = (r: TLabRange) => (r.ageTo ?? 200) - (r.ageFrom ?? 0);

/** The range of an analyte that applies to this patient, or null. */
export function rangeFor<R extends TLabRange>(ranges: readonly R[], subject: TLabSubject): R | null {
  let best: R | null = null;
  for (const range of ranges) {
    if (!applies(range, subject)) continue;
    if (best === null || (range.sex !== null && best.sex === null) || ((range.sex === null) === (best.sex === null) && bandWidth(range) < bandWidth(best))) {
      best = range;
    }
  }
  return best;
}

/** The flag of a numeric value against the range that applies; null without a range. */
export function computeFlag(value: number, range: Pick<TLabRange, 'low' | 'high' | 'criticalLow' | 'criticalHigh'> | null): TLabFlag | null {
  if (!range) return null;
  if (range.criticalLow !== null && value <= range.criticalLow) return 'LL';
  if (range.criticalHigh !== null && value >= range.criticalHigh) return 'HH';
  if (range.low !== null && value < range.low) return 'L';
  if (range.high !== null && value > range.high) return 'H';
  return range.low === null && range.high === null ? null : 'N';
}

/** Whole years between a date of birth and a day (both YYYY-MM-DD): the age in the catalogue's bands. */
export function ageInYears(dateOfBirth: string | null, on: string): number | null {
  if (!dateOfBirth) return null;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return age < 0 ? null : age;
}
