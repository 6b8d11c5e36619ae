import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { keepPrivate, privacyWarning } from './db/private-files.ts';
import { buildApp } from './app.ts';
import { seedDemoClinic } from './seed/demo-clinic.ts';
import { createDatabaseEventBus, pruneLiveEvents } from './events/event-bus.ts';
import { disableDemoAccounts } from './modules/auth/demo-lockout.ts';
import { deleteExpiredThrottleRows } from './modules/auth/login-throttle.ts';
import { deleteExpiredChallenges } from './modules/auth/second-factor.queries.ts';
import { deleteExpiredSessions } from './sessions/session-store.ts';

const config = loadConfig();
// DATA_DIR (database, attachments, keys) closed to the machine's other users before anything opens it.
if (!config.databaseUrl || fs.existsSync(config.dataDir)) {
  const warning = privacyWarning(keepPrivate(config.dataDir));
  if (warning) console.warn(warning);
}
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg') });
if (config.demo && (await seedDemoClinic(database.db, config.clinicTimeZone, config.now()))) {
  console.log('Seeded the demo clinic (password for every demo user: demo-clinic-2026)');
}
// At every start, not only the first: a DEMO=1 left on where others reach the app must be seen.
if (config.demo && config.demoExposure.length > 0) {
  console.warn(
    `WARNING: demo mode is on (DEMO=1) where others can reach this server (${config.demoExposure.join('; ')}). ` +
      "Its demo accounts' password is published: never use it for patient data.",
  );
}
const disabledDemo = await disableDemoAccounts(database.db, config);
if (disabledDemo.length > 0) {
  console.warn(
    `WARNING: not in demo mode, so the demo accounts were deactivated (${disabledDemo.join(', ')}): their password is published. ` +
      "Create the clinic's own admin with: npm run create-admin -- --email you@clinic.org",
  );
}
// Committed events reach every instance on this database (LISTEN/NOTIFY; in-process on PGlite).
const events = await createDatabaseEventBus(database, (error) => console.error('event handler failed', error instanceof Error ? error.name : error));
const app = await buildApp(config, database.db, { events, ...(database.files ? { databaseFiles: database.files } : {}) });

// Expired sessions, sign-in challenges and old throttle counters are ignored anyway; this only keeps the tables small.
const sweep = setInterval(() => {
  deleteExpiredSessions(database.db, config.now()).catch(() => {});
  deleteExpiredThrottleRows(database.db, config.now()).catch(() => {});
  deleteExpiredChallenges(database.db, config.now()).catch(() => {});
  pruneLiveEvents(database.db, config.now()).catch(() => {});
}, 10 * 60_000);
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
  await events.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
console.log(`Clinic EHR is running at ${address} (${database.engine}${config.demo ? ', demo clinic' : ''})`);
