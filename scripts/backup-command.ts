// What `npm run backup` and `npm run restore` share: one directory argument and their flags
// read strictly, `--help`, the app's configuration, and a refusal with advice where the app
// does not back itself up (PostgreSQL, a bucket).
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../server/config.ts';
import { backupAdvice } from '../server/modules/backups/backups.service.ts';

export interface BackupCommand {
  /** The one directory named, absolute. */
  directory: string;
  flags: Record<string, string | boolean | undefined>;
  config: Config;
}

/** The parsed command, or the exit code to stop with (2: misuse or not here; 0: help shown). */
export function readBackupCommand(usage: string, options: NonNullable<ParseArgsConfig['options']>, verb: 'backed up' | 'restored'): BackupCommand | number {
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(usage);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const advice = backupAdvice(config);
  if (advice) {
    console.error(`This installation is not ${verb} by this command. ${advice}`);
    return 2;
  }
  return { directory: path.resolve(parsed.positionals[0]!), flags: parsed.values as BackupCommand['flags'], config };
}
