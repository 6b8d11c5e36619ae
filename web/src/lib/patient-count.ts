/** What the list knows of how many patients match: the first page's headers. */
export interface TPatientCount {
  total: number;
  /** Counted only up to a cap, and there are more (`x-total-capped: 1`). */
  capped: boolean;
}

// The screen's words are English, so the separators are too, whatever the browser's locale.
const NUMBER = new Intl.NumberFormat('en-US');

/**
 * The count line of the patients screen: '1,234 patients', '1 patient matching “hart”', or,
 * when the server stopped counting at its cap, '1,000+ patients matching “smith”'.
 */
export function patientCountText({ total, capped }: TPatientCount, search: string): string {
  const count = capped ? `${NUMBER.format(total)}+` : NUMBER.format(total);
  const patients = `${count} ${total === 1 && !capped ? 'patient' : 'patients'}`;
  return search ? `${patients} matching “${search}”` : patients;
}
