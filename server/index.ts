import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { buildApp } from './app.ts';
import { seedDemoClinic } from './seed/demo-clinic.ts';
import { deleteExpiredSessions } from './modules/auth/session-store.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg') });
if (config.demo && (await seedDemoClinic(database.db, config.clinicTimeZone))) {
  console.log('Seeded the demo clinic (password for every demo user: demo-clinic-2026)');
}
const app = await buildApp(config, database.db);

// Expired sessions are refused anyway; this only keeps the table small.
const sweep = setInterval(() => deleteExpiredSessions(database.db, config.now()).catch(() => {}), 10 * 60_000);
sweep.unref();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: draining connections`);
  clearInterval(sweep);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
console.log(`Clinic EHR is running at ${address} (${database.engine}${config.demo ? ', demo clinic' : ''})`);
