import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';

/** The query API every module uses; it does not reveal which engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Query functions take either, so a service can run several of them in one transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, for tests to start fresh copies from. */
  snapshot?: () => Promise<Blob>;
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent the embedded engine is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; absent means in memory (tests). */
  pgliteDir?: string | undefined;
  /** A migrated PGlite data directory to start from, skipping initdb (tests; see tests/helpers). */
  pgliteSnapshot?: Blob | undefined;
}

const migrationsFolder = path.join(findPackageRoot(), 'server/db/migrations');

/**
 * PostgreSQL's default (4) models spinning disks and keeps the planner away from the trigram
 * indexes; PGlite's data is in memory and a production server's on SSD, where 1.1 is the usual
 * setting. Measured in bench/patients-search.ts: counts of a search term 200 ms -> 15-30 ms.
 */
const RANDOM_PAGE_COST = 1.1;

/** The one place that decides the engine: PGlite when no URL is given, node-postgres otherwise. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: 10, options: `-c random_page_cost=${RANDOM_PAGE_COST}` });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = drizzle(pool);
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, engine: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: options.pgliteDir ?? 'memory://',
    extensions: { pg_trgm },
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
  });
  await client.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  const db = drizzle(client);
  await migrate(db, { migrationsFolder });
  let closed = false;
  return {
    db: db as unknown as Db,
    engine: 'pglite',
    snapshot: () => client.dumpDataDir('none'),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/** Rows of a hand-written query; both engines answer with `{ rows }`. */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function ping(db: Db): Promise<boolean> {
  // A server that stopped answering must not hang the health check.
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, 2000, false).unref());
  const query = db.execute(sql`select 1`).then(() => true, () => false);
  return Promise.race([query, timeout]);
}

function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}
