import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createDatabaseEventBus } from '../server/events/event-bus.ts';
import { openBenchDatabase } from './bench-database.ts';
import { seedDemoClinic } from '../server/seed/demo-clinic.ts';

/**
 * The demo clinic on a fresh database for one benchmark run: on the PostgreSQL server in
 * BENCH_DATABASE_URL (a new database, dropped by `close`), else on PGlite in a temporary
 * directory. `instance()` starts an app on it, in this process, with the database event bus,
 * so two instances share events as two servers would.
 */
export async function openBenchClinic(name: string) {
  const bench = await openBenchDatabase(name);
  const { database } = bench;
  await seedDemoClinic(database.db, 'UTC');
  // Demo mode on, as the only way the demo accounts sign in (docs/security.md); no hot route reads it.
  const config = loadConfig({
    NODE_ENV: 'production',
    // One user makes every request here: a per-user rate limit would measure the limit, not the route.
    RATE_LIMIT_USER_PER_MINUTE: '0',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    DEMO: '1',
    WEB_DIST: '/nonexistent',
    CLINIC_TIME_ZONE: 'UTC',
  });

  async function instance() {
    const events = await createDatabaseEventBus(database);
    const app = await buildApp(config, database.db, { events });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, events, base };
  }

  return {
    engine: bench.engine,
    /** Two instances need a database two processes' worth of connections can share. */
    canRunTwo: bench.engine === 'postgres',
    database,
    config,
    instance,
    close: bench.close,
  };
}
