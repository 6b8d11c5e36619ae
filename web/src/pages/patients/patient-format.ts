import { format, isValid, parse } from 'date-fns';

export function fullName(patient: { firstName: string; lastName: string }): string {
  return `${patient.firstName} ${patient.lastName}`;
}

/**
 * A YYYY-MM-DD birth date, readably ('Mar 12, 1984'). Parsed as a calendar date in local time:
 * `new Date('1984-03-12')` would be UTC midnight and show the day before west of Greenwich.
 */
export function formatDateOfBirth(dateOfBirth: string): string {
  const parsed = parse(dateOfBirth.slice(0, 10), 'yyyy-MM-dd', new Date());
  return isValid(parsed) ? format(parsed, 'MMM d, yyyy') : dateOfBirth;
}
