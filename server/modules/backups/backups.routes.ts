import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBackupStatus } from '#domain/backups';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { runPeriodically } from '../../jobs/periodic.ts';
import { serveControlSocket } from './control-socket.ts';
import { COMMAND, backUpNow, backupStatus, runBackupSchedule, takeBackup, type BackupDeps } from './backups.service.ts';

export const BACKUP_JOB = 'scheduled backup';
/** How often the schedule looks whether a backup is due (or overdue); the backup itself is daily. */
const BACKUP_CHECK_EVERY_MS = 5 * 60_000;

/** Backups of the embedded engine (issue 36): their state in Settings, "Back up now", the schedule, and `npm run backup`'s socket. */
export const backupRoutes: FastifyPluginAsyncZod<BackupDeps> = async (app, deps) => {
  app.get(
    '/api/admin/backups',
    {
      config: { access: 'settings.manage', audit: { action: 'settings.read', entityType: 'clinic_settings' } },
      schema: { response: { 200: ZBackupStatus, ...errorResponses } },
    },
    async () => backupStatus(deps),
  );

  app.post(
    '/api/admin/backups',
    {
      config: { access: 'settings.manage', audit: { action: 'backup.create', entityType: 'backup' } },
      schema: { response: { 200: ZBackupStatus, ...errorResponses } },
    },
    async (request) => {
      await backUpNow(deps, contextOf(request), (error) => request.log.error({ err: loggableError(error) }, 'a backup failed'));
      return backupStatus(deps);
    },
  );

  // The first look a minute after start: a new schedule's first backup should not wait for the interval.
  runPeriodically(
    app,
    BACKUP_JOB,
    BACKUP_CHECK_EVERY_MS,
    () => runBackupSchedule(deps, (error) => app.log.error({ err: loggableError(error) }, 'the scheduled backup failed')),
    { firstAfterMs: 60_000 },
  );

  const source = deps.source;
  if (source && deps.config.backup.byApp) {
    let close: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      close = await serveControlSocket(deps.config.dataDir, async (request) => {
        const result = await takeBackup(deps, COMMAND, { dest: request.dest, includeKeys: request.includeKeys, trigger: 'command', create: request.create });
        return { ok: true, dir: result.dir, bytes: result.bytes, objects: result.manifest.objects.count };
      });
    });
    app.addHook('onClose', async () => {
      await close?.();
    });
  }
};
