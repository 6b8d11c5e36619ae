import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { lockDataDir } from './data-dir-lock.ts';
import { keepEngineFilesPrivate, keepPrivate } from './private-files.ts';
import { waitForDatabase, whereOf } from './wait-for-database.ts';

/** The query API every module uses; it does not reveal which engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Query functions take either, so a service can run several of them in one transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /**
   * Hears NOTIFYs on a channel (sent at commit, never on rollback). On PostgreSQL a dedicated
   * connection, reconnecting on its own with a growing, jittered delay; `onConnected` runs after
   * every (re)connection, so a listener can catch up on what it missed. Returns the stop function.
   */
  listen(channel: string, onNotify: (payload: string) => void, onConnected: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The migrations this open applied, oldest first (the start log lists them). */
  migrationsApplied: string[];
  /** PGlite only: the data directory as a tarball, for tests to start fresh copies from. */
  snapshot?: () => Promise<Blob>;
  /**
   * PGlite on disk only: runs `work` while no statement runs (between two, holding the engine's
   * own lock), so the files in `dir` are what a crash at that moment would leave: every committed
   * write in them. A backup copies them then (modules/backups); statements wait meanwhile.
   */
  files?: { dir: string; whileIdle<T>(work: () => Promise<T>): Promise<T> };
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent the embedded engine is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; absent means in memory (tests). */
  pgliteDir?: string | undefined;
  /** A migrated PGlite data directory to start from, skipping initdb (tests; see tests/helpers). */
  pgliteSnapshot?: Blob | undefined;
  /** Where the migrations are; the app's own unless a test upgrades from an earlier set. */
  migrationsFolder?: string | undefined;
  /** How long to wait for a PostgreSQL server that does not answer yet (DATABASE_WAIT_SECONDS); absent tries once. */
  waitSeconds?: number | undefined;
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
    const url = options.url;
    await waitForDatabase(whereOf(url), {
      seconds: options.waitSeconds ?? 0,
      connect: async () => {
        const probe = new pg.Client({ connectionString: url, application_name: 'ehr-start', connectionTimeoutMillis: 5_000 });
        probe.on('error', () => {});
        try {
          await probe.connect();
        } finally {
          await probe.end().catch(() => {});
        }
      },
    });
    const newPool = (settings = '') => {
      const p = new pg.Pool({ connectionString: options.url, max: 10, options: `-c random_page_cost=${RANDOM_PAGE_COST}${settings}` });
      // A client that loses its connection must not crash the process, idle (the pool's event)
      // or checked out (pg-pool drops its own listener then, and a server restart in the middle
      // of a request emitted an unhandled 'error': issue 48). Its query fails instead, the
      // request is answered 503, and the pool discards it and connects anew.
      p.on('error', () => {});
      p.on('connect', (client) => client.on('error', () => {}));
      return p;
    };
    const pool = newPool();
    const db = drizzle(pool);
    // Every statement of the main pool timed for the metrics (each client once, when it connects).
    pool.on('connect', (client) => {
      client.query = timedQuery(db as unknown as Db, client.query.bind(client)) as typeof client.query;
    });
    poolStats.set(db as unknown as Db, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    // Connections of their own for statements with a time limit, opened on first use.
    const limitedPools = new Map<string, InstanceType<typeof pg.Pool>>();
    const limited = new Map<string, Db>();
    statementLimits.set(db as unknown as Db, (timeoutMs, analytic) => {
      // An analytic read (a report over a year) sorts in memory rather than on disk, and is not
      // JIT-compiled: measured on a year of a network's visits, compiling took 430 ms of 1,750.
      const settings = ` -c statement_timeout=${timeoutMs}${analytic ? ` -c jit=off -c work_mem=${ANALYTIC_WORK_MEM}` : ''}`;
      if (!limited.has(settings)) {
        const p = newPool(settings);
        limitedPools.set(settings, p);
        limited.set(settings, drizzle(p) as unknown as Db);
      }
      return limited.get(settings)!;
    });
    // A connection of its own for work that holds a session lock (the audit sealer's lease).
    sessions.set(db as unknown as Db, async (name) => {
      // A server that does not answer must not hold the app's shutdown: the attempt gives up.
      const client = new pg.Client({ connectionString: options.url, application_name: name, connectionTimeoutMillis: 10_000 });
      let lost = false;
      // A connection killed or dropped must not crash the process: its next query fails instead.
      client.on('error', () => {
        lost = true;
      });
      await client.connect();
      return { db: drizzle(client) as unknown as Db, inProcess: false, lost: () => lost, close: () => client.end().catch(() => {}) };
    });
    let migrationsApplied: string[];
    // Several instances may start at once on one database: one migrates while the others wait
    // for its session lock, then find nothing left to do (two raced to CREATE the same table: issue 48).
    const lock = new pg.Client({ connectionString: options.url, application_name: 'ehr-migrations' });
    lock.on('error', () => {});
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      migrationsApplied = await migrateForward(db as unknown as Db, options.migrationsFolder ?? migrationsFolder, () =>
        migrate(db, { migrationsFolder: options.migrationsFolder ?? migrationsFolder }),
      );
    } finally {
      await lock.end().catch(() => {});
    }
    const listen: Database['listen'] = async (channel, onNotify, onConnected) => {
      let client: InstanceType<typeof pg.Client> | null = null;
      let stopped = false;
      let failures = 0;
      const retry = () => {
        if (stopped) return;
        client?.removeAllListeners();
        // Ending a broken client can emit one more 'error': with no listener that ended the process.
        client?.on('error', () => {});
        client?.end().catch(() => {});
        client = null;
        failures += 1;
        const delay = Math.min(30_000, 250 * 2 ** Math.min(failures, 7)) * (0.5 + Math.random());
        setTimeout(() => void connect(), delay).unref();
      };
      const connect = async () => {
        if (stopped) return;
        const c = new pg.Client({ connectionString: options.url });
        client = c;
        c.on('notification', (message) => {
          if (message.channel === channel) onNotify(message.payload ?? '');
        });
        c.on('error', retry);
        c.on('end', () => {
          if (client === c) retry();
        });
        try {
          await c.connect();
          await c.query(`listen ${channel}`);
          failures = 0;
          onConnected();
        } catch {
          if (client === c) retry();
        }
      };
      await connect();
      return async () => {
        stopped = true;
        const c = client;
        client = null;
        c?.removeAllListeners();
        c?.on('error', () => {});
        await c?.end().catch(() => {});
      };
    };
    const close = async () => {
      await Promise.all([pool.end(), ...[...limitedPools.values()].map((p) => p.end())]);
    };
    return { db: db as unknown as Db, engine: 'postgres', listen, close, migrationsApplied };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // The database's files are the app's user's alone (private-files.ts), from the first byte.
  if (options.pgliteDir) {
    keepPrivate(options.pgliteDir);
    keepEngineFilesPrivate(options.pgliteDir);
  }
  // One process at a time on these files (data-dir-lock.ts); refused before anything is opened.
  const unlock = options.pgliteDir ? lockDataDir(options.pgliteDir) : () => {};
  const client = await PGlite.create({
    dataDir: options.pgliteDir ?? 'memory://',
    extensions: { pg_trgm, btree_gist },
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
  });
  await client.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  const db = drizzle(client);
  // Every statement timed for the metrics: each runs inside this lock (the wait for it not counted).
  const exclusive = client._runExclusiveQuery.bind(client);
  client._runExclusiveQuery = <T>(fn: () => Promise<T>) => exclusive(timedQuery(db as unknown as Db, fn));
  const migrationsApplied = await migrateForward(db as unknown as Db, options.migrationsFolder ?? migrationsFolder, () =>
    migrate(db, { migrationsFolder: options.migrationsFolder ?? migrationsFolder }),
  );
  let closed = false;
  return {
    db: db as unknown as Db,
    engine: 'pglite',
    migrationsApplied,
    // In-process: the engine delivers a transaction's NOTIFYs when it commits.
    listen: async (channel, onNotify, onConnected) => {
      const unlisten = await client.listen(channel, onNotify);
      onConnected();
      return unlisten;
    },
    snapshot: () => client.dumpDataDir('none'),
    ...(options.pgliteDir ? { files: { dir: path.resolve(options.pgliteDir), whileIdle: <T>(work: () => Promise<T>) => exclusive(work) } } : {}),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      unlock();
    },
  };
}

const statementLimits = new WeakMap<Db, (timeoutMs: number, analytic: boolean) => Db>();

const queryObservers = new WeakMap<Db, (seconds: number) => void>();
const poolStats = new WeakMap<Db, () => { total: number; idle: number; waiting: number }>();

/**
 * `run`, reporting how long each call took to whoever observes `db`'s queries (the metrics):
 * until its promise settles, or its callback is called (node-postgres's pool passes one).
 */
function timedQuery<A extends unknown[], R>(db: Db, run: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    const observe = queryObservers.get(db);
    if (!observe) return run(...args);
    const started = performance.now();
    const done = () => observe((performance.now() - started) / 1000);
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return run(...args);
    }
    const result = run(...args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
}

/** Hears the time of every statement `db` runs (one observer: the app's metrics). */
export function observeQueries(db: Db, observe: (seconds: number) => void): void {
  queryObservers.set(db, observe);
}

/** The PostgreSQL pool's connections (all, idle) and the requests waiting for one; null on PGlite. */
export function databasePool(db: Db): { total: number; idle: number; waiting: number } | null {
  return poolStats.get(db)?.() ?? null;
}

/** Memory an analytic read's sorts and hashes may take per step (a report's connections only: at most 10). */
const ANALYTIC_WORK_MEM = '64MB';

/** One connection held apart from the pool, with what a session holds (advisory locks). */
export interface DatabaseSession {
  db: Db;
  /** Its statements run in this process (PGlite): while one runs, the event loop does not turn. */
  inProcess: boolean;
  /** The connection dropped or was killed (it holds nothing any more). */
  lost(): boolean;
  close(): Promise<void>;
}
const sessions = new WeakMap<Db, (name: string) => Promise<DatabaseSession>>();

/**
 * A dedicated connection, named `name` on the server (application_name), for work that needs a
 * session of its own: a session-level advisory lock lives exactly as long as its connection, so
 * a lease held this way ends when the process or its connection dies. PGlite has one session,
 * shared by the whole process: there this is `db` itself.
 */
export function openSession(db: Db, name: string): Promise<DatabaseSession> {
  const open = sessions.get(db);
  return open ? open(name) : Promise.resolve({ db, inProcess: true, lost: () => false, close: async () => {} });
}

/**
 * `db`, with every statement stopped after `timeoutMs` (statement_timeout, on connections kept
 * for that limit, so no statement has to set it first). PGlite runs one statement at a time in
 * this process and cannot interrupt it: there this is `db` itself.
 */
export function withStatementTimeout(db: Db, timeoutMs: number, opts: { analytic?: boolean } = {}): Db {
  return statementLimits.get(db)?.(timeoutMs, opts.analytic ?? false) ?? db;
}

/** Rows of a hand-written query; both engines answer with `{ rows }`. */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * Rows of a hot, hand-written query run as a named prepared statement: PostgreSQL parses and
 * plans it once per connection, and each call sends only its parameters. Measured on the
 * patients page: +35% requests per second. Only for statements whose best plan does not depend
 * on the values (a key lookup, a list with no search term): a prepared statement may settle on
 * a generic plan. The name carries a hash of the text, so each variant is its own statement.
 * PGlite runs it as an ordinary query.
 */
export async function preparedRows<T>(q: Queryable, name: string, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const statement = `${name}_${createHash('sha1').update(built.sql).digest('hex').slice(0, 12)}`;
  const result = await q._.session.prepareQuery(built, undefined, statement, false).execute();
  return (result as unknown as { rows: T[] }).rows;
}

export async function ping(db: Db): Promise<boolean> {
  // A server that stopped answering must not hang the health check.
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, 2000, false).unref());
  const query = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
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

/** The session lock instances take to migrate one at a time (beside the audit's 727002 and the sealer's lease 727003). */
const MIGRATION_LOCK = 727004;

type TJournal = { entries: { tag: string; when: number }[] };
const journalOf = (folder: string) => JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as TJournal;

/** A database migrated by a newer release than this code: started on, it would be read by rules it does not know. */
export class SchemaTooNewError extends Error {
  constructor(databaseMigratedAt: string, codeLast: string) {
    super(
      `This database was migrated by a newer release (its last migration is from ${databaseMigratedAt}), ` +
        `but this code knows migrations only up to ${codeLast}. Start the newer release again, or restore a backup taken before the upgrade.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Applies this code's migrations, after refusing a database a newer release migrated (issue 48:
 * older code on a newer schema reported its audit chain broken, and let a scheduler read a
 * patient restricted under the newer release). Drizzle would apply nothing and start.
 */
async function migrateForward(db: Db, folder: string, migrate: () => Promise<void>): Promise<string[]> {
  const journal = journalOf(folder);
  const newestKnown = Math.max(...journal.entries.map((e) => e.when));
  const [table] = await queryRows<{ found: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`);
  const [applied] = table?.found ? await queryRows<{ at: string | null }>(db, sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`) : [];
  const at = applied?.at;
  if (at && Number(at) > newestKnown) {
    throw new SchemaTooNewError(new Date(Number(at)).toISOString(), journal.entries.find((e) => e.when === newestKnown)!.tag);
  }
  await migrate();
  return journal.entries.filter((e) => !at || e.when > Number(at)).map((e) => e.tag);
}

/** The tag of the last migration applied ('0025_backup_runs'), from drizzle's own record of them. */
export async function lastMigrationTag(db: Db): Promise<string> {
  const [row] = await queryRows<{ created_at: string }>(db, sql`select created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`);
  const journal = journalOf(migrationsFolder);
  return journal.entries.find((e) => String(e.when) === row?.created_at)?.tag ?? `unknown (${row?.created_at ?? 'none'})`;
}
