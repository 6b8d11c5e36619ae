import { LAB_PRIORITY_LABELS, type TLabPriority } from '#domain/labs';
import type { TNotificationType } from '#domain/notifications';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { activeUsersWith } from '../../db/users-with.ts';
import { notify, resolveNotices } from '../notifications/notifications.service.ts';

/**
 * What staff are told about lab orders (issue 30; docs/decisions/labs.md). Every notice names the
 * patient and the test, so it goes only to active staff who may read lab orders at the moment it
 * is sent (a result's PHI never reaches anyone else), and never to the person who acted. A notice
 * asks for one step; the step done resolves it for everyone it went to.
 */
export interface TLabNotice {
  orderId: string;
  orderName: string;
  priority: TLabPriority;
  patientName: string;
  actorId: string | null;
  actorName: string;
}

/** Of these users, the active ones who may read lab orders now. */
const readersAmong = (q: Queryable, userIds: readonly (string | null)[]) => activeUsersWith(q, 'labs.read', userIds);

/** The active users who review anyone's results: the escalation's addressees. */
export const labEscalationRecipients = (q: Queryable) => activeUsersWith(q, 'labs.reviewAny');

async function tell(
  q: Queryable,
  raise: Raise,
  to: readonly (string | null)[],
  n: TLabNotice,
  notice: { type: TNotificationType; title: string; message: string },
) {
  for (const userId of await readersAmong(q, to)) {
    if (userId !== n.actorId) await notify(q, raise, { userId, entityId: n.orderId, ...notice });
  }
}

const what = (n: TLabNotice) => `${n.orderName}${n.priority === 'routine' ? '' : ` (${LAB_PRIORITY_LABELS[n.priority]})`} for ${n.patientName}`;

/** Ordered: the nurse on the patient's visit today collects the specimen. */
export const noticeLabOrdered = (q: Queryable, raise: Raise, collector: string | null, n: TLabNotice) =>
  tell(q, raise, [collector], n, {
    type: 'lab_ordered',
    title: 'Lab test ordered',
    message: `${n.actorName} ordered ${what(n)}. Please collect the specimen.`,
  });

/** Collected: the ordering provider knows it is on its way. */
export async function noticeLabCollected(q: Queryable, raise: Raise, providerId: string | null, n: TLabNotice) {
  await resolveLabNotices(q, raise, n.orderId, ['lab_ordered']);
  await tell(q, raise, [providerId], n, {
    type: 'lab_pending',
    title: 'Specimen collected',
    message: `The specimen for ${what(n)} was collected by ${n.actorName}.`,
  });
}

/** Results in (or corrected): the ordering provider is asked to review them. */
export async function noticeLabResults(q: Queryable, raise: Raise, providerId: string | null, n: TLabNotice, opts: { abnormal: boolean; corrected: boolean }) {
  await resolveLabNotices(q, raise, n.orderId, ['lab_ordered', 'lab_pending', 'lab_received']);
  await tell(q, raise, [providerId], n, {
    type: 'lab_received',
    title: opts.corrected ? 'Lab results corrected' : 'Lab results in',
    message: `${opts.corrected ? 'Corrected results' : 'Results'} for ${what(n)}${opts.abnormal ? ', with abnormal values,' : ''} ${opts.corrected ? 'need' : 'are in and need'} your review.`,
  });
}

/** A critical value: the ordering provider must acknowledge it (an alert, escalated if not). */
export const noticeLabCritical = (q: Queryable, raise: Raise, providerId: string | null, n: TLabNotice, values: string) =>
  tell(q, raise, [providerId], n, {
    type: 'lab_critical',
    title: 'Critical lab result',
    message: `${what(n)}: ${values}. Acknowledge it on the Lab Orders screen.`,
  });

/** Nobody acknowledged a critical value in time: the admins are told, once. */
export async function noticeLabEscalated(q: Queryable, raise: Raise, n: TLabNotice, minutes: number) {
  await tell(q, raise, await labEscalationRecipients(q), n, {
    type: 'lab_critical',
    title: 'Critical lab result not acknowledged',
    message: `${what(n)} has a critical value that nobody acknowledged within ${minutes} minutes. Please act on it.`,
  });
}

/** Past the day results were expected with none in: the ordering provider is told, once. */
export const noticeLabOverdue = (q: Queryable, raise: Raise, providerId: string | null, n: TLabNotice, expectedOn: string) =>
  tell(q, raise, [providerId], n, {
    type: 'lab_pending',
    title: 'Lab results overdue',
    message: `Results for ${what(n)} were expected on ${expectedOn} and are not in.`,
  });

export const resolveLabNotices = (q: Queryable, raise: Raise, orderId: string, types: readonly TNotificationType[]) =>
  resolveNotices(q, raise, { entityIds: [orderId], types });
