export function fullName(patient: { firstName: string; lastName: string }): string {
  return `${patient.firstName} ${patient.lastName}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * A YYYY-MM-DD birth date, readably ('Mar 12, 1984'), read as a calendar date: no time zone can
 * move it (`new Date('1984-03-12')` is UTC midnight, the day before west of Greenwich). By hand,
 * not with a date library: every card on the patients screen calls it while the screen draws.
 */
export function formatDateOfBirth(dateOfBirth: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(dateOfBirth);
  if (!match) return dateOfBirth;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) return dateOfBirth;
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}
