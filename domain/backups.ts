import { z } from 'zod';

/** How a backup was started: the daily schedule, or `npm run backup` by whoever runs the server. */
/**
 * What started a backup: the daily schedule and Settings' 'Back up now' write into BACKUP_DIR, and
 * only those count for the schedule; `npm run backup` writes wherever it is told (issue 48: one
 * taken elsewhere reset the schedule and settled its overdue notices).
 */
export const BACKUP_TRIGGERS = ['schedule', 'settings', 'command'] as const;
export const SCHEDULED_DIR_TRIGGERS = ['schedule', 'settings'] as const;
export type TBackupTrigger = (typeof BACKUP_TRIGGERS)[number];
export const BACKUP_OUTCOMES = ['succeeded', 'failed'] as const;

/** One backup attempt, as the Settings tab shows it. */
export const ZBackupRun = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  outcome: z.enum(BACKUP_OUTCOMES),
  trigger: z.enum(BACKUP_TRIGGERS),
  /** The backup's directory name (its place is BACKUP_DIR, or where the command was told). */
  name: z.string().nullable(),
  bytes: z.number().int().nullable(),
  /** Why it failed, in words for the operator (never a patient's data). */
  error: z.string().nullable(),
});
export type TBackupRun = z.infer<typeof ZBackupRun>;

/** GET /api/admin/backups: whether backups happen, when the last one succeeded, and whether one is overdue. */
export const ZBackupStatus = z.object({
  /**
   * 'app': the app backs up itself (the embedded engine with files on local disk). 'operator':
   * PostgreSQL or a bucket, backed up with their own tools (docs/production.md); the app cannot
   * see those backups, so it shows the advice instead of an age.
   */
  managedBy: z.enum(['app', 'operator']),
  /** With 'operator': what to back up and with which tools, as `npm run backup` says it (issue 48). */
  advice: z.string().nullable(),
  /** The daily schedule (BACKUP_DIR set), or null when none is set. */
  schedule: z.object({ everyHours: z.number().int(), keep: z.number().int() }).nullable(),
  lastSuccess: ZBackupRun.nullable(),
  /** The latest attempt, when it failed after the last success. */
  lastFailure: ZBackupRun.nullable(),
  /** Scheduled, and no success within the schedule's period and an hour's grace: the admins are told. */
  overdue: z.boolean(),
});
export type TBackupStatus = z.infer<typeof ZBackupStatus>;

/** An hour beyond the period before a missing backup counts as overdue: a slow backup is not a missed one. */
export const BACKUP_GRACE_MS = 60 * 60_000;

/** Whether the last success is too old for the schedule (no schedule: never overdue, Settings warns instead). */
export function backupOverdue(schedule: TBackupStatus['schedule'], lastSuccessAt: Date | null, since: Date, now: Date): boolean {
  if (!schedule) return false;
  const limit = schedule.everyHours * 3_600_000 + BACKUP_GRACE_MS;
  return now.getTime() - (lastSuccessAt ?? since).getTime() > limit;
}
