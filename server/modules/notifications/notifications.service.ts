import type { TNotification, TNotificationType } from '#domain/notifications';
import type { Queryable } from '../../db/database.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import { notifications } from '../../db/schema/collaboration.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { readOf } from '../../scope/reader.ts';
import {
  deactivateNotices,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  patientOfRecord,
  patientsOfRecords,
} from './notifications.queries.ts';

export interface TNewNotification {
  userId: string;
  type: TNotificationType;
  title: string;
  message?: string | null;
  /** The record it is about (an appointment, a note...), for the screen to link to. */
  entityId?: string | null;
}

/**
 * The one way a notification is made: inside the transaction of the change it tells about, so
 * it exists exactly when the change does, and pushed live to its user once that commits. Every
 * area (appointments, notes, labs, supplies, chat) notifies through this.
 */
export async function notify(tx: Queryable, raise: Raise, input: TNewNotification): Promise<string> {
  const [row] = await tx
    .insert(notifications)
    .values({
      userId: input.userId,
      type: input.type,
      title: input.title,
      message: input.message ?? null,
      entityId: input.entityId ?? null,
      // Its patient, so it hides with her record if that is restricted (issue 33).
      patientId: patientOfRecord(input.entityId),
    })
    .returning({ id: notifications.id });
  raise({ type: 'notification.created', notificationId: row!.id, userId: input.userId });
  return row!.id;
}

/**
 * The other half of `notify`: what a notification asked is done (a note reviewed, a visit that
 * happened or was called off), so the notifications of these types about these records stop
 * calling for attention, for everyone they went to (or only `userIds`), and each of those users
 * is told live so the bell and the dashboard drop them (issue 29). In the transaction of the
 * change that did it: resolved exactly when the task is.
 */
export async function resolveNotices(
  tx: Queryable,
  raise: Raise,
  about: { entityIds: readonly string[]; types: readonly TNotificationType[]; userIds?: readonly string[] },
): Promise<number> {
  const resolved = await deactivateNotices(tx, about);
  const byUser = new Map<string, string[]>();
  for (const { id, userId } of resolved) byUser.set(userId, [...(byUser.get(userId) ?? []), id]);
  for (const [userId, notificationIds] of byUser) raise({ type: 'notifications.resolved', userId, notificationIds });
  return resolved.length;
}

export const NOTIFICATION_READS = {
  /**
   * The caller's own notifications. Their titles name patients ('New note for Liam Chen'), so the
   * read is audited, with the patients of the records they are about.
   */
  list: readOf({
    action: 'notifications.read',
    entityType: 'notification',
    run: async ({ db, scope }, _: void) => {
      const list: TNotification[] = await listNotifications(db, scope.viewer.id, scope.patientSeen);
      return {
        list,
        patientIds:
          list.length > 0
            ? await patientsOfRecords(
                db,
                list.map((n) => n.entityId),
              )
            : [],
      };
    },
    shows: ({ list, patientIds }) => (list.length > 0 ? { patientIds } : null),
  }),
};

/** Dismisses one of the caller's own notifications; anyone else's is a 404, never touched. */
export async function markRead(deps: Deps, ctx: SignedInContext, id: string): Promise<{ id: string }> {
  return inTransaction(deps, async (tx, raise) => {
    if (!(await markNotificationRead(tx, ctx.user.id, id, deps.config.now()))) throw notFound();
    await recordAudit(tx, ctx, { action: 'notification.read', entityType: 'notification', entityId: id });
    raise({ type: 'notification.read', notificationId: id, userId: ctx.user.id });
    return { id };
  });
}

/** Marks every unread notification of the caller read. */
export async function markAllRead(deps: Deps, ctx: SignedInContext): Promise<{ count: number }> {
  return inTransaction(deps, async (tx) => {
    const count = await markAllNotificationsRead(tx, ctx.user.id, deps.config.now());
    if (count > 0) await recordAudit(tx, ctx, { action: 'notification.read_all', entityType: 'notification' });
    return { count };
  });
}
