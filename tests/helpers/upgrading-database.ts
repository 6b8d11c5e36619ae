import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../../server/db/database.ts';
import { adminQuery, withDatabase } from './global-setup.ts';

const MIGRATIONS = path.resolve('server/db/migrations');

/** The tags of the app's migrations, oldest first, as its journal lists them. */
export function migrationTags(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}

/**
 * The migrations as they were up to `lastTag`: the same files, the journal cut after it, in a
 * directory of their own (the caller removes it).
 */
export function migrationsUpTo(lastTag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-migrations-'));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag} in the journal`);
  journal.entries = journal.entries.slice(0, last + 1);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** A database of the run's engine that a test opens at an earlier migration, fills, and reopens (upgraded) as the app opens it. */
export interface UpgradingDatabase {
  /** Opens it, applying the migrations in `migrationsFolder` (the app's own when absent) that it has not had yet. */
  openAt(options: Pick<DatabaseOptions, 'migrationsFolder'>): Promise<Database>;
  /** Closes it, keeping what it holds for the next open. */
  keep(database: Database): Promise<void>;
  /** Another such database holding what this one was last kept with (this one must be closed). */
  copy(): Promise<UpgradingDatabase>;
  drop(): Promise<void>;
}

/** A new, empty one. */
export async function upgradingDatabase(): Promise<UpgradingDatabase> {
  return upgrading(null, undefined);
}

async function upgrading(template: string | null, kept: Blob | undefined): Promise<UpgradingDatabase> {
  const source = inject('dbSource');
  // Named under the run's prefix, so the run's teardown drops any a failed test left behind.
  const name = source.kind === 'postgres' ? `${source.prefix}_up_${randomBytes(4).toString('hex')}` : null;
  if (source.kind === 'postgres') await adminQuery(source.url, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = source.kind === 'postgres' ? withDatabase(source.url, name!) : undefined;
  let snapshot = kept;
  return {
    async openAt(options) {
      return openDatabase({ url, pgliteSnapshot: snapshot, ...options });
    },
    async keep(database) {
      if (database.snapshot) snapshot = await database.snapshot();
      await database.close();
    },
    copy: () => upgrading(name, snapshot),
    async drop() {
      if (source.kind === 'postgres') await adminQuery(source.url, `drop database if exists ${name} with (force)`);
    },
  };
}
