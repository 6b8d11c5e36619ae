/**
 * Backups of the embedded engine (issue 36): `npm run backup`'s time and size, and the restore's,
 * for BENCH_PATIENTS (100,000) patients and BENCH_ATTACHMENT_MB (1024) MB of attachments, and
 * what a running backup does to the patients list: its p99 under ten connections, first without
 * a backup and then while one runs, in the same run (the ratio is the figure; this machine is
 * shared). Load comes from a worker thread, so the app's event loop is not the load generator's.
 * Prints JSON figures; nothing here asserts a time.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { askRunningApp, type TControlAnswer } from '../server/modules/backups/control-socket.ts';
import { restoreBackup } from '../server/modules/backups/restore-backup.ts';
import { seedDemoClinic } from '../server/seed/demo-clinic.ts';
import { openFileStorage } from '../server/storage/storage.ts';
import { insertBenchPatients } from './bench-patients.ts';
import { signIn } from './servers.ts';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 100_000);
const ATTACHMENT_MB = Number(process.env.BENCH_ATTACHMENT_MB ?? 1024);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-backup-'));
const dataDir = path.join(root, 'data');
const r1 = (x: number) => Math.round(x * 10) / 10;
const mb = (bytes: number) => r1(bytes / 1024 ** 2);
const duSize = (dir: string): number =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce((sum, e) => sum + (e.isDirectory() ? duSize(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);

try {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO: '1',
    WEB_DIST: '/nonexistent',
    CLINIC_TIME_ZONE: 'UTC',
    RATE_LIMIT_USER_PER_MINUTE: '0',
  });
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pg') });
  const seedStarted = Date.now();
  await seedDemoClinic(database.db, 'UTC');
  for (let from = 1; from <= PATIENTS; from += 50_000) await database.db.execute(insertBenchPatients(from, Math.min(PATIENTS, from + 49_999)));
  await database.db.execute(sql`vacuum analyze patients`);
  // Attachments as the app stores them (encrypted, one object each): 1 MB scans and PDFs.
  const files = await openFileStorage(config);
  const chunk = randomBytes(1024 ** 2);
  for (let i = 0; i < ATTACHMENT_MB; i += 1) {
    await files.storage.write(randomUUID(), Readable.from(Buffer.concat([Buffer.from(`%PDF-1.7 ${i}\n`), chunk.subarray(16)])), { maxBytes: 2 * 1024 ** 2 });
  }
  const seedSeconds = r1((Date.now() - seedStarted) / 1000);

  const app = await buildApp(config, database.db, { databaseFiles: database.files! });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signIn(base);
  const paths = ['/api/patients?limit=50', '/api/patients?search=smi&limit=50', '/api/patients?search=mary&limit=50'];
  /** Ten connections on the list and two searches for `seconds`. (autocannon's stop() never reports with a worker thread.) */
  const load = (seconds: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        { url: base, headers: { cookie }, connections: 10, duration: seconds, workers: 1, requests: paths.map((p) => ({ method: 'GET' as const, path: p })) },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  const figures = (r: autocannon.Result) => ({
    requests: r.requests.total,
    requestsPerSecond: r1(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
  });

  await load(2); // warm-up
  const baseline = await load(LOAD_SECONDS);

  // The same load again, with backups running back to back from its first second to its end
  // (the last may run on past it): every request of the window meets a running backup.
  let loadRunning = true;
  const during = load(LOAD_SECONDS).finally(() => (loadRunning = false));
  const backups: { seconds: number; answer: TControlAnswer | null }[] = [];
  await new Promise((resolve) => setTimeout(resolve, 1000));
  while (loadRunning) {
    const started = performance.now();
    const answer = await askRunningApp(dataDir, { op: 'backup', dest: path.join(root, 'backups'), includeKeys: false, create: true });
    backups.push({ seconds: (performance.now() - started) / 1000, answer });
    if (!answer?.ok) break;
  }
  const underBackup = await during;
  const answer = backups[0]?.answer;
  const backupSeconds = backups[0]!.seconds;
  if (!answer?.ok) throw new Error(`backup failed: ${JSON.stringify(answer)}`);
  // And one with nothing else running: the backup's own time.
  const quietStarted = performance.now();
  const quiet = await askRunningApp(dataDir, { op: 'backup', dest: path.join(root, 'quiet'), includeKeys: false, create: true });
  const quietSeconds = (performance.now() - quietStarted) / 1000;
  await app.close();
  const pgBytes = duSize(path.join(dataDir, 'pg'));
  const objectsBytes = duSize(path.join(dataDir, 'objects'));
  await database.close();

  const restoreStarted = performance.now();
  const restored = await restoreBackup({
    src: answer.dir,
    dataDir: path.join(root, 'restored'),
    envKeys: { files: undefined, auditHead: undefined },
    keysFrom: dataDir,
  });
  const restoreSeconds = (performance.now() - restoreStarted) / 1000;
  const manifest = JSON.parse(fs.readFileSync(path.join(answer.dir, 'manifest.json'), 'utf8')) as { database: { files: number; bytes: number } };

  console.log(
    JSON.stringify(
      {
        engine: 'pglite',
        patients: PATIENTS,
        attachments: { count: ATTACHMENT_MB, mb: mb(objectsBytes) },
        seedSeconds,
        source: { databaseMb: mb(pgBytes), objectsMb: mb(objectsBytes) },
        backupQuiet: { seconds: r1(quietSeconds), ok: quiet?.ok ?? false },
        // The first backup of the loaded window (its moment under load); the time alone is below.
        backupUnderLoad: {
          seconds: r1(backupSeconds),
          mb: mb(answer.bytes),
          databaseGzMb: mb(manifest.database.bytes),
          databaseFiles: manifest.database.files,
          objects: answer.objects,
        },
        restore: { seconds: r1(restoreSeconds), patients: restored.patients, objects: restored.objects, auditSealed: restored.audit.sealed },
        patientsList: {
          paths,
          connections: 10,
          withoutBackup: figures(baseline),
          seconds: LOAD_SECONDS,
          duringBackups: { backups: backups.length, secondsEach: backups.map((b) => r1(b.seconds)), ...figures(underBackup) },
          p99Ratio: r1(underBackup.latency.p99 / Math.max(1, baseline.latency.p99)),
        },
      },
      null,
      2,
    ),
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  fs.rmSync(root, { recursive: true, force: true });
  // The app and its timers would otherwise keep a failed run alive.
  setTimeout(() => process.exit(), 100).unref();
}
