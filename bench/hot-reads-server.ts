/**
 * The app under load for bench/hot-reads.ts, in its own process so autocannon does not share its
 * event loop. Database from the parent: BENCH_SERVER_DATABASE_URL (a fresh PostgreSQL database the
 * parent created and drops) or PGlite in BENCH_SERVER_PGLITE_DIR. Seeds the demo clinic plus
 * BENCH_SERVER_PATIENTS extra patients, listens on a free port and says `READY <port>` on stderr.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { seedDemoClinic } from '../server/seed/demo-clinic.ts';
import { FIRST, LAST } from './hot-reads-names.ts';

const url = process.env.BENCH_SERVER_DATABASE_URL;
const pgliteDir = process.env.BENCH_SERVER_PGLITE_DIR;
const extra = Number(process.env.BENCH_SERVER_PATIENTS ?? 10_000);
if (!url && !pgliteDir) throw new Error('hot-reads-server: set BENCH_SERVER_DATABASE_URL or BENCH_SERVER_PGLITE_DIR');

const database = await openDatabase(url ? { url } : { pgliteDir });
const db = database.db;
// BENCH_SERVER_SEED=0: a second instance on a database the first one seeded.
if (process.env.BENCH_SERVER_SEED !== '0') await seed();

async function seed() {
  await seedDemoClinic(db, 'UTC');
  const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
  // One set-based insert: row-by-row through the API would take minutes and measure nothing.
  await db.execute(sql`
  insert into patients (first_name, last_name, email, phone, date_of_birth, insurance_provider)
  select f, l || '-' || (i % 997)::text, lower(f) || '.' || lower(l) || i::text || '@example.com',
         '555-' || lpad((i % 10000)::text, 4, '0'), date '1940-01-01' + (i % 29000), 'Aetna'
  from (select i, (${arr(FIRST)})[1 + i % ${FIRST.length}] as f, (${arr(LAST)})[1 + (i / 7) % ${LAST.length}] as l
        from generate_series(1::int, ${extra}::int) as i) s`);
  await db.execute(sql`analyze`);
}

// Production settings, logging at info: its cost is part of every request (stdout is /dev/null).
// Demo mode on, as the only way the demo accounts sign in (docs/security.md); no hot route reads it.
// AUDIT_SEAL_EVERY_MS passes through (0: this instance does not seal).
const config = loadConfig({
  NODE_ENV: 'production',
  // One user makes every request here: a per-user rate limit would measure the limit, not the route.
  RATE_LIMIT_USER_PER_MINUTE: '0',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
  LOG_LEVEL: 'info',
  DEMO: '1',
  WEB_DIST: '/nonexistent',
  CLINIC_TIME_ZONE: 'UTC',
  AUDIT_SEAL_EVERY_MS: process.env.AUDIT_SEAL_EVERY_MS,
  // Where attachments and the lab interface's messages are kept (BENCH_SERVER_DATA_DIR; else ./data).
  DATA_DIR: process.env.BENCH_SERVER_DATA_DIR,
  // The lab interface (bench/lab-interface.ts): off unless the parent gives it a port.
  HL7_MLLP_PORT: process.env.HL7_MLLP_PORT,
  HL7_MAX_CONNECTIONS: process.env.HL7_MAX_CONNECTIONS,
});
const app = await buildApp(config, db);
await app.listen({ port: 0, host: '127.0.0.1' });

// BENCH_CPU_PROFILE=<file>: a CPU profile of the serving phase only (not the seeding), written
// on stop, for finding where a request's time goes (node:inspector, as `node --cpu-prof` does).
const profiler = process.env.BENCH_CPU_PROFILE ? await startProfiler() : null;

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  if (profiler) fs.writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify(await profiler.stop()));
  // The parent kills us anyway after a while; a clean close lets PGlite and the pool shut down.
  await app.close().catch(() => {});
  await database.close().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

process.stderr.write(`READY ${(app.server.address() as { port: number }).port}\n`);

async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return { stop: async () => (await session.post('Profiler.stop')).profile };
}
