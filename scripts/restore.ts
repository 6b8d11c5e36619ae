// `npm run restore -- <backup directory> [--keys-from <dir>]`: a backup made by `npm run backup`
// (or the daily schedule) back into an empty DATA_DIR, checked before anything is written
// (issue 36; docs/production.md). The app must not be running on that DATA_DIR.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { DataDirInUseError } from '../server/db/data-dir-lock.ts';
import { backupAdvice } from '../server/modules/backups/backups.service.ts';
import { RestoreRefused, restoreBackup } from '../server/modules/backups/restore-backup.ts';

const USAGE = 'Usage: npm run restore -- <backup directory> [--keys-from <directory holding files.key and audit-head.key>]';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: { 'keys-from': { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const advice = backupAdvice(config);
  if (advice) {
    console.error(`This installation is not restored by this command. ${advice}`);
    return 2;
  }
  try {
    const keysFrom = parsed.values['keys-from'];
    const result = await restoreBackup({
      src: path.resolve(parsed.positionals[0]!),
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
