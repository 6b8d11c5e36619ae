import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../server/db/database.ts';

async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one benchmark run, migrated: a new one on the PostgreSQL server in
 * BENCH_DATABASE_URL, else PGlite in a temporary directory. `keep` names a PostgreSQL database
 * kept between runs (created if missing, never dropped), for data sets that take long to seed.
 * `close` drops what it created.
 */
export async function openBenchDatabase(name: string, opts: { keep?: string | undefined } = {}) {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ehr-bench-${name}-`));
  const dbName = opts.keep ?? `ehr_bench_${name.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
  let url: string | undefined;
  if (adminUrl) {
    await adminQuery(adminUrl, `create database ${dbName}`).catch((error: unknown) => {
      if (!opts.keep) throw error;
    });
    const target = new URL(adminUrl);
    target.pathname = `/${dbName}`;
    url = target.toString();
  }
  const database: Database = await openDatabase(url ? { url } : { pgliteDir: path.join(dir, 'pg') });
  return {
    database,
    db: database.db,
    /** The server's URL of this database (PostgreSQL), for a second process to open. */
    url,
    engine: adminUrl ? ('postgres' as const) : ('pglite' as const),
    async close() {
      await database.close();
      if (adminUrl && !opts.keep) await adminQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
