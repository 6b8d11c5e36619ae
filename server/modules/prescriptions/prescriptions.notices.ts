import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { activeUsersWith } from '../../db/users-with.ts';
import { notify, resolveNotices } from '../notifications/notifications.service.ts';
import { postSystemMessage } from '../chat/system-messages.ts';

/**
 * What staff are told about prescriptions (issue 52): the prescriber a draft names is asked to
 * sign it (unless she wrote it), and the patient's care room hears when one is signed or stopped,
 * as a `prescription_update` message. Only active users who read prescriptions are told.
 */
export async function noticeToSign(
  q: Queryable,
  raise: Raise,
  n: { prescriptionId: string; prescriberId: string; actorId: string; actorName: string; what: string; patientName: string },
) {
  if (n.prescriberId === n.actorId) return;
  for (const userId of await activeUsersWith(q, 'prescriptions.read', [n.prescriberId])) {
    await notify(q, raise, {
      userId,
      type: 'prescription_to_sign',
      title: 'Prescription to sign',
      message: `${n.actorName} prepared ${n.what} for ${n.patientName}. Please review and sign it.`,
      entityId: n.prescriptionId,
    });
  }
}

/** Signed, discarded or replaced: nobody need sign it any more. */
export const resolveToSign = (q: Queryable, raise: Raise, prescriptionId: string) =>
  resolveNotices(q, raise, { entityIds: [prescriptionId], types: ['prescription_to_sign'] });

/** A line in the patient's rooms: what changed, by whom. */
export const postPrescriptionUpdate = (
  q: Queryable,
  raise: Raise,
  m: { patientId: string; prescriptionId: string; actorId: string; content: string; at: Date },
) =>
  postSystemMessage(q, raise, {
    patientId: m.patientId,
    senderId: m.actorId,
    messageType: 'prescription_update',
    content: m.content,
    related: { type: 'prescription', id: m.prescriptionId },
    at: m.at,
  });
