import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { createDatabaseEventBus } from '../server/events/event-bus.ts';
import { seedDemoClinic } from '../server/seed/demo-clinic.ts';

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
 * The demo clinic on a fresh database for one benchmark run: on the PostgreSQL server in
 * BENCH_DATABASE_URL (a new database, dropped by `close`), else on PGlite in a temporary
 * directory. `instance()` starts an app on it, in this process, with the database event bus,
 * so two instances share events as two servers would.
 */
export async function openBenchClinic(name: string) {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const dbName = `ehr_bench_${name}_${randomBytes(4).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ehr-bench-${name}-`));
  let url: string | undefined;
  if (adminUrl) {
    await adminQuery(adminUrl, `create database ${dbName}`);
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${dbName}`;
    url = parsed.toString();
  }
  const database = await openDatabase(url ? { url } : { pgliteDir: path.join(dir, 'pg') });
  await seedDemoClinic(database.db, 'UTC');
  // Demo mode on, as the only way the demo accounts sign in (docs/security.md); no hot route reads it.
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO: '1', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: 'UTC' });

  async function instance() {
    const events = await createDatabaseEventBus(database);
    const app = await buildApp(config, database.db, { events });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, events, base };
  }

  return {
    engine: adminUrl ? ('postgres' as const) : ('pglite' as const),
    /** Two instances need a database two processes' worth of connections can share. */
    canRunTwo: adminUrl !== undefined,
    database,
    config,
    instance,
    async close() {
      await database.close();
      if (adminUrl) await adminQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
