import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TBackupRun, TBackupTrigger } from '#domain/backups';
import type { Queryable } from '../../db/database.ts';
import { backupRuns } from '../../db/schema/backups.ts';
import { notifications } from '../../db/schema/collaboration.ts';

type RunRow = typeof backupRuns.$inferSelect;

export const toBackupRun = (r: RunRow): TBackupRun => ({
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt.toISOString(),
  outcome: r.outcome,
  trigger: r.trigger,
  name: r.name,
  bytes: r.bytes,
  error: r.error,
});

export async function insertBackupRun(q: Queryable, run: Omit<RunRow, 'id'>): Promise<void> {
  await q.insert(backupRuns).values(run);
}

/** The latest success, and the latest attempt (which may be that success), of backups started `by` these triggers. */
export async function latestBackupRuns(q: Queryable, by: readonly TBackupTrigger[]): Promise<{ success: RunRow | null; latest: RunRow | null }> {
  const started = inArray(backupRuns.trigger, [...by]);
  const [success] = await q
    .select()
    .from(backupRuns)
    .where(and(eq(backupRuns.outcome, 'succeeded'), started))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  const [latest] = await q.select().from(backupRuns).where(started).orderBy(desc(backupRuns.finishedAt)).limit(1);
  return { success: success ?? null, latest: latest ?? null };
}

/** Of `adminIds`, those not told yet: a notice stays until a backup succeeds, read or not (dismissing it is no reason to repeat it). */
export async function adminsNotYetTold(q: Queryable, adminIds: string[]): Promise<string[]> {
  if (adminIds.length === 0) return [];
  const told = await q
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.type, 'backup_overdue'), eq(notifications.isActive, true), inArray(notifications.userId, adminIds)));
  const seen = new Set(told.map((t) => t.userId));
  return adminIds.filter((id) => !seen.has(id));
}

/** Every overdue-backup notice still active: a backup succeeded, so none calls for attention any more. */
export async function settleOverdueNotices(q: Queryable): Promise<{ id: string; userId: string }[]> {
  return q
    .update(notifications)
    .set({ isActive: false })
    .where(and(eq(notifications.type, 'backup_overdue'), eq(notifications.isActive, true)))
    .returning({ id: notifications.id, userId: notifications.userId });
}
