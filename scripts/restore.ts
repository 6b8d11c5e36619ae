// `npm run restore -- <backup directory> [--keys-from <dir>]`: a backup made by `npm run backup`
// (or the daily schedule) back into an empty DATA_DIR, checked before anything is written
// (issue 36; docs/production.md). The app must not be running on that DATA_DIR.
import path from 'node:path';
import { DataDirInUseError } from '../server/db/data-dir-lock.ts';
import { readBackupCommand } from './backup-command.ts';
import { RestoreRefused, restoreBackup } from '../server/modules/backups/restore-backup.ts';

const USAGE = 'Usage: npm run restore -- <backup directory> [--keys-from <directory holding files.key and audit-head.key>]';

async function main(): Promise<number> {
  const command = readBackupCommand(USAGE, { 'keys-from': { type: 'string' } }, 'restored');
  if (typeof command === 'number') return command;
  const { config } = command;
  try {
    // A string option: parseArgs gives a string or nothing.
    const keysFrom = command.flags['keys-from'] as string | undefined;
    const result = await restoreBackup({
      src: command.directory,
      dataDir: config.dataDir,
      envKeys: { files: config.files.key, auditHead: config.auditHead.key },
      keysFrom: keysFrom === undefined ? undefined : path.resolve(keysFrom),
    });
    console.log(
      `Restored the backup of ${result.manifest.createdAt} into ${config.dataDir}: ${result.patients} patients, ${result.objects} attachments; ` +
        `the audit chain verified (${result.audit.sealed} rows sealed, every link intact; ${result.audit.unsealed} to seal at start).`,
    );
    for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
    console.log('Start the app as usual (npm start): it applies the migrations of newer code, if any.');
    return 0;
  } catch (error) {
    if (error instanceof RestoreRefused || error instanceof DataDirInUseError) {
      console.error(`Nothing was restored. ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
