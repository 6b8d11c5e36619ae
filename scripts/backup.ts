// `npm run backup -- <dest> [--include-keys]`: a consistent copy of the embedded database and the
// attachments, into a new directory under <dest>, while the app runs and writes (issue 36;
// docs/production.md). With the app running, the app takes it (only its process can open the
// embedded engine); with the app stopped, this command opens the data directory itself. On
// PostgreSQL or with a bucket it refuses and says which tools to use instead.
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { DataDirInUseError } from '../server/db/data-dir-lock.ts';
import { openDatabase } from '../server/db/database.ts';
import { askRunningApp, type TControlAnswer, type TControlRequest } from '../server/modules/backups/control-socket.ts';
import { readBackupCommand } from './backup-command.ts';

const USAGE = 'Usage: npm run backup -- <destination directory> [--include-keys] [--create]';

/** With the app stopped: this process opens the data directory and asks itself, the same way. */
async function backupStopped(config: ReturnType<typeof loadConfig>, request: TControlRequest): Promise<TControlAnswer | null> {
  // A mistyped DATA_DIR must not become a new, empty clinic that is then "backed up" (issue 48).
  if (!fs.existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION'))) {
    return { ok: false, message: `There is no embedded database in ${config.dataDir} (DATA_DIR). Point DATA_DIR at the app's data directory.` };
  }
  const database = await openDatabase({ pgliteDir: path.join(config.dataDir, 'pg') });
  try {
    const app = await buildApp({ ...config, logLevel: 'warn' }, database.db, { databaseFiles: database.files! });
    try {
      await app.ready();
      return await askRunningApp(config.dataDir, request);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  const command = readBackupCommand(USAGE, { 'include-keys': { type: 'boolean' }, create: { type: 'boolean' } }, 'backed up');
  if (typeof command === 'number') return command;
  const { config } = command;
  const request: TControlRequest = {
    op: 'backup',
    dest: command.directory,
    includeKeys: command.flags['include-keys'] === true,
    create: command.flags.create === true,
  };
  let answer: TControlAnswer | null;
  try {
    answer = (await askRunningApp(config.dataDir, request)) ?? (await backupStopped(config, request));
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(
        `${error.message}\nThe app holding it does not answer on ${path.join(config.dataDir, 'run')}: is it an older version? Update and restart it, or stop it and run this again.`,
      );
      return 1;
    }
    throw error;
  }
  if (!answer || !answer.ok) {
    console.error(`The backup failed: ${answer ? answer.message : 'the app did not answer'}`);
    return 1;
  }
  console.log(`Backup written to ${answer.dir} (${(answer.bytes / 1024 ** 2).toFixed(1)} MB, ${answer.objects} attachments).`);
  console.log(
    request.includeKeys
      ? 'It holds copies of the keys: whoever has it can read every record and attachment. Store it as you store the keys.'
      : 'The keys are not in it. Keep a copy of the files key (FILES_KEY or DATA_DIR/files.key) and DATA_DIR/audit-head.key apart from it: restore needs them (npm run restore -- <backup> --keys-from <dir>).',
  );
  return 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
