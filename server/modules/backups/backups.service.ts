import { BACKUP_TRIGGERS, backupOverdue, SCHEDULED_DIR_TRIGGERS, type TBackupStatus, type TBackupTrigger } from '#domain/backups';
import type { Deps } from '../../deps.ts';
import { inTransaction } from '../../db/transaction.ts';
import { activeUsersWith } from '../../db/users-with.ts';
import { HttpError } from '../../http/errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { notify } from '../notifications/notifications.service.ts';
import { isBackupName } from './backup-format.ts';
import { adminsNotYetTold, insertBackupRun, latestBackupRuns, settleOverdueNotices, toBackupRun } from './backups.queries.ts';
import { pruneBackups, writeBackup, type BackupResult, type BackupSource } from './write-backup.ts';

/** What the backups module needs beyond the app's deps: the running database's snapshot, when the app backs itself up. */
export interface BackupDeps extends Deps {
  source: BackupSource | undefined;
  /** When this instance started: a schedule with no success yet counts its period from here. */
  startedAt: Date;
}

/** The scheduled backup's own context in the audit trail (no user started it). */
const SCHEDULE: RequestContext = { user: null, ip: '', userAgent: 'scheduled backup', sessionToken: null };
export const COMMAND: RequestContext = { user: null, ip: '', userAgent: 'npm run backup', sessionToken: null };

/**
 * The app backs itself up only with the embedded engine and files on its own disk; PostgreSQL and
 * a bucket have tools made for it (docs/production.md), which `npm run backup` names instead.
 */
export function backupAdvice(config: Deps['config']): string | null {
  const reasons = [
    config.databaseUrl &&
      'The database is PostgreSQL: back it up with its own tools, pg_dump for a nightly copy or continuous archiving (pg_basebackup and WAL archiving) to restore to any moment.',
    config.files.s3 &&
      'Attachments are in an S3 bucket: turn on the bucket’s versioning (or replication to a second bucket) so a deleted or overwritten object can be brought back.',
    // On PostgreSQL without a bucket, part of the clinic's record is still on this machine (issue 48).
    config.databaseUrl &&
      !config.files.s3 &&
      `Attachments and the keys are not in the database: copy ${config.dataDir} too (its objects/ directory, files.key and audit-head.key), with the dump, on the same schedule.`,
  ].filter(Boolean);
  return reasons.length > 0 ? `${reasons.join(' ')} See docs/production.md, "Backups".` : null;
}

let running: Promise<unknown> = Promise.resolve();

/**
 * Takes a backup into `dest` and records it (backup_runs, and the audit trail: a backup is a copy
 * of every record). One at a time per process: a second waits for the first. A success settles
 * the admins' overdue notices; a failure is recorded with its reason and thrown.
 */
export async function takeBackup(
  deps: BackupDeps,
  ctx: RequestContext,
  input: { dest: string; includeKeys: boolean; trigger: TBackupTrigger; create?: boolean },
): Promise<BackupResult> {
  const source = deps.source;
  if (!source) throw new HttpError('backup.notHere', { message: backupAdvice(deps.config) ?? 'This server does not back itself up.' });
  const turn = running.then(async () => {
    const startedAt = deps.config.now();
    try {
      const result = await writeBackup(source, input.dest, { now: startedAt, includeKeys: input.includeKeys, create: input.create ?? false });
      await inTransaction(deps, async (tx, raise) => {
        await insertBackupRun(tx, {
          startedAt,
          finishedAt: deps.config.now(),
          outcome: 'succeeded',
          trigger: input.trigger,
          name: result.name,
          bytes: result.bytes,
          error: null,
        });
        await recordAudit(tx, ctx, { action: 'backup.create', entityType: 'backup', entityId: result.name });
        // Only a backup into BACKUP_DIR answers the schedule's overdue notices.
        const settled = (SCHEDULED_DIR_TRIGGERS as readonly string[]).includes(input.trigger) ? await settleOverdueNotices(tx) : [];
        for (const userId of new Set(settled.map((n) => n.userId))) {
          raise({ type: 'notifications.resolved', userId, notificationIds: settled.filter((n) => n.userId === userId).map((n) => n.id) });
        }
      });
      return result;
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await insertBackupRun(deps.db, {
        startedAt,
        finishedAt: deps.config.now(),
        outcome: 'failed',
        trigger: input.trigger,
        name: null,
        bytes: null,
        error: reason.slice(0, 1000),
      });
      throw error;
    }
  });
  running = turn.catch(() => {});
  return turn;
}

/**
 * Settings' 'Back up now': a backup into BACKUP_DIR, kept to BACKUP_KEEP as the schedule's are
 * (issue 48). A failure is recorded with its reason (a path and an errno, never a record) and
 * answered 503 `backup.failed`.
 */
export async function backUpNow(deps: BackupDeps, ctx: RequestContext, onFailure: (error: unknown) => void): Promise<void> {
  if (!deps.config.backup.byApp) throw new HttpError('backup.notHere');
  const dir = deps.config.backup.dir;
  if (!dir) throw new HttpError('backup.notScheduled');
  try {
    await takeBackup(deps, ctx, { dest: dir, includeKeys: false, trigger: 'settings' });
    await pruneBackups(dir, deps.config.backup.keep, isBackupName);
  } catch (error) {
    onFailure(error);
    throw new HttpError('backup.failed', { message: `The backup failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

export async function backupStatus(deps: BackupDeps): Promise<TBackupStatus> {
  const { backup } = deps.config;
  const managedBy = deps.config.backup.byApp ? 'app' : 'operator';
  const schedule = managedBy === 'app' && backup.dir ? { everyHours: backup.everyHours, keep: backup.keep } : null;
  // With a schedule, what counts is what went into BACKUP_DIR; without one, any backup the app took.
  const { success, latest } = await latestBackupRuns(deps.db, schedule ? SCHEDULED_DIR_TRIGGERS : BACKUP_TRIGGERS);
  const lastFailure = latest && latest.outcome === 'failed' ? latest : null;
  const overdue = schedule !== null && (lastFailure !== null || backupOverdue(schedule, success?.finishedAt ?? null, deps.startedAt, deps.config.now()));
  return {
    managedBy,
    advice: backupAdvice(deps.config),
    schedule,
    lastSuccess: success && toBackupRun(success),
    lastFailure: lastFailure && toBackupRun(lastFailure),
    overdue,
  };
}

/**
 * The schedule's turn (every few minutes): a backup into BACKUP_DIR when the last success is a
 * period old, the oldest beyond BACKUP_KEEP removed; then, if the last attempt failed or none
 * succeeded in time, every admin not told yet gets a notice, until a backup succeeds.
 */
export async function runBackupSchedule(deps: BackupDeps, onFailure: (error: unknown) => void): Promise<{ took: boolean; told: number }> {
  const status = await backupStatus(deps);
  if (!status.schedule || !deps.config.backup.dir) return { took: false, told: 0 };
  const periodMs = status.schedule.everyHours * 3_600_000;
  const last = status.lastSuccess ? new Date(status.lastSuccess.finishedAt).getTime() : null;
  const lastTry = status.lastFailure ? new Date(status.lastFailure.finishedAt).getTime() : null;
  const now = deps.config.now().getTime();
  // After a failure, try again every hour, not every few minutes.
  const due = (last === null || now - last >= periodMs) && (lastTry === null || now - lastTry >= 3_600_000);
  let took = false;
  if (due) {
    try {
      await takeBackup(deps, SCHEDULE, { dest: deps.config.backup.dir, includeKeys: false, trigger: 'schedule' });
      await pruneBackups(deps.config.backup.dir, status.schedule.keep, isBackupName);
      took = true;
    } catch (error) {
      onFailure(error);
    }
  }
  return { took, told: await tellAdminsIfOverdue(deps) };
}

async function tellAdminsIfOverdue(deps: BackupDeps): Promise<number> {
  const status = await backupStatus(deps);
  if (!status.overdue) return 0;
  return inTransaction(deps, async (tx, raise) => {
    const admins = await adminsNotYetTold(tx, await activeUsersWith(tx, 'settings.manage'));
    const message = status.lastFailure
      ? `The last backup failed (${status.lastFailure.error ?? 'no reason given'}). See Admin Panel → Settings → Backups.`
      : `No backup succeeded in the last ${status.schedule!.everyHours} hours. See Admin Panel → Settings → Backups.`;
    for (const userId of admins) await notify(tx, raise, { userId, type: 'backup_overdue', title: 'A backup is overdue', message });
    return admins.length;
  });
}
