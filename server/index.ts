import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { openDatabase, SchemaTooNewError } from './db/database.ts';
import { DatabaseUnreachableError } from './db/wait-for-database.ts';
import { checkKeysMatch, KeysDifferError } from './secrets/key-check.ts';
import { DataDirNotWritableError, keepPrivate, privacyWarning } from './db/private-files.ts';
import { buildApp } from './app.ts';
import { startLoopWatchdog } from './loop-watchdog.ts';
import { seedDemoClinic } from './seed/demo-clinic.ts';
import { createDatabaseEventBus, pruneLiveEvents } from './events/event-bus.ts';
import { anyActiveUser, disableDemoAccounts } from './modules/auth/demo-lockout.ts';
import { deleteExpiredThrottleRows } from './modules/auth/login-throttle.ts';
import { deleteExpiredChallenges } from './modules/auth/second-factor.queries.ts';
import { deleteExpiredSessions } from './sessions/session-store.ts';

const config = loadConfig();
// From the first moment: a process stuck for good (the engine spinning on a write it cannot make) is ended, to be restarted.
const watchdog = startLoopWatchdog(config.loopWatchdogSeconds);

/** A start refused for a reason the operator can act on: its message alone, no stack; anything else as Node reports it. */
function refuseToStart(error: unknown): never {
  const refusals = [DataDirInUseError, DataDirNotWritableError, DatabaseUnreachableError, SchemaTooNewError, KeysDifferError];
  if (refusals.some((kind) => error instanceof kind)) {
    console.error((error as Error).message);
    process.exit(1);
  }
  throw error;
}
// DATA_DIR (database, attachments, keys) closed to the machine's other users before anything opens it.
if (!config.databaseUrl || fs.existsSync(config.dataDir)) {
  let stuck: string[] = [];
  try {
    stuck = keepPrivate(config.dataDir);
  } catch (error) {
    refuseToStart(error);
  }
  const warning = privacyWarning(stuck);
  if (warning) console.warn(warning);
}
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg'), waitSeconds: config.databaseWaitSeconds }).catch(
  refuseToStart,
);
await checkKeysMatch(database.db, config).catch(async (error: unknown) => {
  await database.close();
  return refuseToStart(error);
});
if (database.migrationsApplied.length > 0) console.log(`Migrated the database: ${database.migrationsApplied.join(', ')}`);
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
// A clinic without the demo and with nobody able to sign in yet: say how to begin (issue 48).
if (!config.demo && !(await anyActiveUser(database.db))) {
  console.warn("No one can sign in yet. Create the clinic's first admin with: npm run create-admin -- --email you@clinic.org");
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
  // A client that stopped reading holds its connection, and the drain would wait on it for good:
  // past 5 s what is still open is cut, so the database still closes in order.
  setTimeout(() => app.server.closeAllConnections(), 5_000).unref();
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.close();
  await watchdog.stop();
  await events.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// Under `npm start`, a supervisor's SIGTERM reaches npm alone, which exits and leaves this
// process serving, re-parented (issue 48): when the parent is gone, stop as for SIGTERM.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) void shutdown('npm exited');
  }, 500);
  orphaned.unref();
}

const address = await app.listen({ port: config.port, host: config.host });
// Started: from now on the watchdog's own limit holds (a long migration no longer counts).
watchdog.ready();
console.log(`Clinic EHR is running at ${address} (${database.engine}${config.demo ? ', demo clinic' : ''})`);
