import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { adminQuery, withDatabase } from './global-setup.ts';

/**
 * A fresh, migrated database of the run's engine, for one test file. PGlite keeps it in memory,
 * or in `pgliteDir` on disk, as the app keeps its own (what backups copy).
 */
export async function freshDatabase(options: { pgliteDir?: string } = {}): Promise<Database> {
  const source = inject('dbSource');
  if (source.kind === 'pglite') {
    return openDatabase({ pgliteSnapshot: new Blob([fs.readFileSync(source.file)]), pgliteDir: options.pgliteDir });
  }
  const name = `${source.prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(source.url, `create database ${name} template ${source.template}`);
  const db = await openDatabase({ url: withDatabase(source.url, name) });
  return {
    ...db,
    close: async () => {
      await db.close();
      await adminQuery(source.url, `drop database if exists ${name} with (force)`);
    },
  };
}
