import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TNotification, TNotificationType } from '#domain/notifications';
import type { ReadScope } from '../../scope/read-scope.ts';
import { queryRows, type Queryable } from '../../db/database.ts';
import { notifications } from '../../db/schema/collaboration.ts';

const columns = {
  id: notifications.id,
  type: notifications.type,
  title: notifications.title,
  message: notifications.message,
  entityId: notifications.entityId,
  createdAt: notifications.createdAt,
  isRead: notifications.isRead,
  isActive: notifications.isActive,
};

/** A user's own notifications, newest first. Nobody reads another's. */
/**
 * The user's notifications, newest first, but those about a restricted patient outside her reach
 * (issue 33): their titles may name her.
 */
export async function listNotifications(q: Queryable, userId: string, seen: ReadScope['patientSeen'], limit = 200): Promise<TNotification[]> {
  const rows = await q
    .select(columns)
    .from(notifications)
    .where(and(eq(notifications.userId, userId), seen(sql`${notifications.patientId}`)))
    .orderBy(desc(notifications.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/**
 * Deactivates the active notifications of these types about these records (for these users
 * only, when given); answers which, and whose.
 */
export async function deactivateNotices(
  q: Queryable,
  about: { entityIds: readonly string[]; types: readonly TNotificationType[]; userIds?: readonly string[] | undefined },
): Promise<{ id: string; userId: string }[]> {
  if (about.entityIds.length === 0 || about.types.length === 0 || about.userIds?.length === 0) return [];
  return q
    .update(notifications)
    .set({ isActive: false })
    .where(
      and(
        inArray(notifications.entityId, [...about.entityIds]),
        inArray(notifications.type, [...about.types]),
        eq(notifications.isActive, true),
        about.userIds ? inArray(notifications.userId, [...about.userIds]) : undefined,
      ),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
}

/** Marks one of the user's notifications read; false when it is not theirs or does not exist. */
export async function markNotificationRead(q: Queryable, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await q
    .update(notifications)
    .set({ isRead: true, readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** Marks all of the user's unread notifications read; returns how many. */
export async function markAllNotificationsRead(q: Queryable, userId: string, now: Date): Promise<number> {
  const rows = await q
    .update(notifications)
    .set({ isRead: true, readAt: now })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** An entity id that can name a record (others, such as a user's own id text, name no patient). */
const ZUuid = z.string().uuid();

/**
 * The patient of the record a notification is about (an appointment, a note, a lab order, a
 * chat room), found when it is made: by primary key, at most four lookups, none for an id that
 * names no record (a user's own).
 */
export function patientOfRecord(entityId: string | null | undefined): SQL {
  if (!entityId || !ZUuid.safeParse(entityId).success) return sql`null::uuid`;
  const id = sql`${entityId}::uuid`;
  return sql`coalesce(
    (select patient_id from appointments where id = ${id}), (select patient_id from patient_notes where id = ${id}),
    (select patient_id from lab_orders where id = ${id}), (select patient_id from patient_chat_rooms where id = ${id}))`;
}

/** The patients of the records notifications are about (appointments, notes, chat rooms), for the audit row. */
export async function patientsOfRecords(q: Queryable, entityIds: (string | null)[]): Promise<string[]> {
  const ids = [...new Set(entityIds.filter((id): id is string => ZUuid.safeParse(id).success))];
  if (ids.length === 0) return [];
  const list = sql`${`{${ids.join(',')}}`}::uuid[]`;
  const rows = await queryRows<{ patient_id: string }>(
    q,
    sql`
    select patient_id from appointments where id = any(${list})
    union select patient_id from patient_notes where id = any(${list})
    union select patient_id from patient_chat_rooms where id = any(${list})`,
  );
  return rows.map((r) => r.patient_id);
}
