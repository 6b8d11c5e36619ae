import { patientLabel } from '#domain/record-scope';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { activeUsersWith } from '../../db/users-with.ts';
import { notify } from '../notifications/notifications.service.ts';

/**
 * A new record has the name and birth date of restricted patients its creator may not see: she
 * was told nothing (that would say who is a patient here), so those who manage restricted records
 * are told instead, with ids only, to see whether it is the same person's second chart.
 */
export async function noticePossibleRestrictedDuplicate(tx: Queryable, raise: Raise, newPatientId: string, restrictedIds: string[]): Promise<void> {
  const matches = restrictedIds.map(patientLabel).join(', ');
  for (const userId of await activeUsersWith(tx, 'patients.restrict')) {
    await notify(tx, raise, {
      userId,
      type: 'possible_duplicate',
      title: 'A new record may duplicate a restricted one',
      message: `${patientLabel(newPatientId)} was just created with the same name and date of birth as restricted ${matches}. Check whether they are the same person.`,
      entityId: newPatientId,
    });
  }
}
