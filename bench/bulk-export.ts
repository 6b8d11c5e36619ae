/**
 * FHIR Bulk Data export (issue 53) of a whole clinic at two sizes (BENCH_BULK_SIZES, patients,
 * default 10,000 and 100,000), each patient with three visits (two past ones completed, so
 * Encounters; one in ten of the second a no-show), a finalized note, a lab order with two results,
 * an allergy, a problem, a medication and a vital-sign set. A system-level export (a client's
 * token, `system/*.read`) through the real app, after a warm-up one: kick-off to settled (the
 * status polled every 200 ms, whose X-Progress says when each type started), then every file
 * downloaded over HTTP and its lines counted; resources per second, and the process's peak RSS
 * and heap while it ran (sampled every 50 ms) beside the value before the kick-off, so both sizes'
 * peaks show whether memory follows the clinic. Then, at the larger size, `GET /api/patients?limit=20`
 * by a signed-in session, BENCH_RUNS (200) sequential requests spread over an export's length,
 * first without an export (the baseline), then while one runs: p50/p95/p99, the p99 ratio
 * (target ≤ 2) and the event loop's delay. On a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards), else on PGlite (whose engine's memory is this
 * process's too). With `node --expose-gc`, a GC before each kick-off. Nothing here asserts a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { bulkExportSettled } from '../server/modules/fhir/bulk-export.service.ts';
import { openBenchDatabase } from './bench-database.ts';
import { insertBenchPatients } from './bench-patients.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const SIZES = (process.env.BENCH_BULK_SIZES ?? '10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
/** Patients whose records one set of statements writes. */
const BATCH = 50_000;

const log = (message: string) => process.stderr.write(`[bulk-export bench] ${message}\n`);
const mb = (bytes: number) => r(bytes / 1024 ** 2);
const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;
const gc = (globalThis as { gc?: () => void }).gc;

const bench = await openBenchDatabase('bulk-export');
const { db } = bench;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-bulk-export-'));

/** The records of every patient without any yet (those insertBenchPatients just added), set-based. */
async function seedRecords(nurseId: string, scribeId: string) {
  await db.execute(sql`create unlogged table bench_new as
    select id, (row_number() over (order by id))::int as n from patients p where not exists (select 1 from appointments a where a.patient_id = p.id)`);
  const [{ count } = { count: 0 }] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from bench_new`);
  const chart = sql`'confirmed', now(), ${nurseId}::uuid, now(), ${nurseId}::uuid, now(), now()`;
  const chartColumns = sql.raw('state, recorded_at, recorded_by_id, confirmed_at, confirmed_by_id, created_at, updated_at');
  for (let lo = 1; lo <= count; lo += BATCH) {
    const b = sql`(select id, n from bench_new where n between ${lo} and ${lo + BATCH - 1}) b`;
    // One visit ahead, two behind (four months apart, so a patient's never overlap).
    await db.execute(sql`
      insert into appointments (patient_id, provider_id, appointment_date, duration, appointment_type, status, reason, checked_in_at, completed_at,
        created_at, updated_at)
      select b.id, ${nurseId}::uuid, t.at, 30, 'follow_up', s.status::appointment_status, 'Routine visit',
        case when s.status = 'completed' then t.at end, case when s.status = 'completed' then t.at + interval '30 minutes' end, t.at - interval '14 days', t.at
      from generate_series(0, 2) k
      cross join ${b}
      cross join lateral (select date_trunc('minute', now()) + make_interval(days => case when k = 0 then 1 + b.n % 60 else -(k * 120 + b.n % 90) end,
        mins => b.n % 480) as at) t
      cross join lateral (select case when k = 0 then 'scheduled' when k = 2 and b.n % 10 = 0 then 'no_show' else 'completed' end as status) s`);
    await db.execute(sql`
      insert into patient_notes (patient_id, author_id, note_type, content, status, scribe_id, reviewed_at, finalized_at, created_at, updated_at)
      select b.id, ${nurseId}::uuid, 'Progress Note', 'Seen for follow-up. Vitals stable. Plan: continue current medications, return in 3 months.',
        'finalized', ${scribeId}::uuid, t.at + interval '20 hours', t.at + interval '40 hours', t.at, t.at + interval '40 hours'
      from ${b} cross join lateral (select now() - make_interval(days => 120 + b.n % 90) as at) t`);
    await db.execute(sql`
      with made as (
        insert into lab_orders (patient_id, provider_id, order_name, status, priority, ordered_at, received_at, reviewed_at, reviewed_by_id,
          first_reviewed_at, expected_on, worst_flag, flag_rank, created_at, updated_at)
        select b.id, ${nurseId}::uuid, 'Basic metabolic panel', 'received', 'routine', t.at, t.at + interval '1 day', t.at + interval '2 days',
          ${nurseId}::uuid, t.at + interval '2 days', (t.at + interval '1 day')::date, 'N', 0, t.at, t.at + interval '2 days'
        from ${b} cross join lateral (select now() - make_interval(days => 120 + b.n % 90) as at) t
        returning id, received_at
      )
      insert into lab_results (order_id, position, name, value_numeric, unit, ref_low, ref_high, flag, flag_source, entered_by_id, entered_at)
      select m.id, k.position, k.name, k.value, 'mmol/L', k.low, k.high, 'N', 'computed', ${nurseId}::uuid, m.received_at
      from made m cross join (values (0, 'Potassium', 4.2, 3.5, 5.1), (1, 'Sodium', 140, 135, 145)) as k(position, name, value, low, high)`);
    await db.execute(sql`insert into patient_allergies (patient_id, substance_kind, substance_name, type, category, reactions, criticality, status, ${chartColumns})
      select b.id, 'text', 'Penicillin', 'allergy', 'medication', array['Rash'], 'low', 'active', ${chart} from ${b}`);
    await db.execute(sql`insert into patient_problems (patient_id, code, name, clinical_status, verification, ${chartColumns})
      select b.id, 'I10', 'Essential (primary) hypertension', 'active', 'confirmed', ${chart} from ${b}`);
    await db.execute(sql`insert into patient_medications (patient_id, name, dose, frequency, status, source, ${chartColumns})
      select b.id, 'Lisinopril 10 mg tablet', '1 tablet', 'once daily', 'active', 'prescribed_here', ${chart} from ${b}`);
    await db.execute(sql`insert into vital_signs (patient_id, taken_at, systolic, diastolic, heart_rate, temperature, weight, height, status, ${chartColumns})
      select b.id, now() - make_interval(days => 120 + b.n % 90), 110 + b.n % 40, 70 + b.n % 20, 60 + b.n % 30, 36.8, 60 + b.n % 40, 170, 'final', ${chart}
      from ${b}`);
  }
  await db.execute(sql`drop table bench_new`);
}

/** Grows the clinic to `size` patients (from those it has), with their records; the tables analyzed as autovacuum would. */
async function growTo(size: number, from: number, staff: { nurseId: string; scribeId: string }) {
  const started = Date.now();
  for (let i = from + 1; i <= size; i += BATCH) await db.execute(insertBenchPatients(i, Math.min(size, i + BATCH - 1)));
  await seedRecords(staff.nurseId, staff.scribeId);
  const tables = ['patients', 'appointments', 'patient_notes', 'lab_orders', 'lab_results', 'patient_allergies', 'patient_problems', 'patient_medications'];
  for (const table of [...tables, 'vital_signs']) await db.execute(sql.raw(`vacuum analyze ${table}`));
  const seconds = r((Date.now() - started) / 1000);
  log(`${size} patients seeded in ${seconds} s`);
  return seconds;
}

/** p50/p95/p99/max of timings, and the answers other than 200. */
function latency(times: number[], statuses: number[]) {
  const sorted = times.toSorted((a, b) => a - b);
  const q = (x: number) => r(quantile(sorted, x));
  return { n: times.length, p50Ms: q(0.5), p95Ms: q(0.95), p99Ms: q(0.99), maxMs: r(sorted.at(-1)!), non200: statuses.filter((s) => s !== 200).length };
}

try {
  const admin = await createUser(db, { role: 'admin' });
  const nurse = await createUser(db, { role: 'nurse' });
  const scribe = await createUser(db, { role: 'scribe' });
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    // Errors only: an export that fails says why; nothing else mixes with the JSON on stdout.
    LOG_LEVEL: 'error',
    DEMO: '0',
    WEB_DIST: '/nonexistent',
    CLINIC_TIME_ZONE: 'UTC',
    // One user makes every request here: a per-user rate limit would measure the limit.
    RATE_LIMIT_USER_PER_MINUTE: '0',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
  });
  const app = await buildApp(config, db);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;
  const client = await app.inject({
    method: 'POST',
    url: '/api/admin/api-clients',
    headers: { cookie },
    payload: { name: 'Warehouse', actingUserId: admin.id, scopes: ['system/*.read'] },
  });
  if (client.statusCode !== 201) throw new Error(`api client: ${client.statusCode} ${client.body}`);
  const { id: clientId, clientSecret } = client.json() as { id: string; clientSecret: string };

  /** A fresh token (they expire), as the warehouse would ask before each export. */
  async function bearer() {
    const res = await app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
    return { authorization: `Bearer ${(res.json() as { access_token: string }).access_token}`, accept: 'application/fhir+json' };
  }

  /**
   * A system-level export from kick-off to settled, with `alongside` run meanwhile; then its
   * manifest, and every file downloaded over HTTP (streamed, lines counted); then removed.
   */
  async function exportAll<T>(alongside: (running: () => boolean) => Promise<T>) {
    const headers = await bearer();
    gc?.();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, heapUsed: before.heapUsed };
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    }, 50);
    const t0 = performance.now();
    const kick = await app.inject({ method: 'GET', url: '/fhir/R4/$export', headers: { ...headers, prefer: 'respond-async' } });
    if (kick.statusCode !== 202) throw new Error(`kick-off: ${kick.statusCode} ${kick.body}`);
    const status = new URL(kick.headers['content-location'] as string).pathname;
    let running = true;
    const settled = bulkExportSettled(status.split('/').pop()!).then(() => {
      running = false;
      return performance.now() - t0;
    });
    // The status every 200 ms: X-Progress names the type being read ("3 of 12 types: Appointment (…)").
    const typeStarted: [string, number][] = [];
    const polling = (async () => {
      for (; running; await sleep(200)) {
        const type = /types: (\w+)/.exec(String((await app.inject({ method: 'GET', url: status, headers })).headers['x-progress']))?.[1];
        if (type && type !== typeStarted.at(-1)?.[0]) typeStarted.push([type, performance.now() - t0]);
      }
    })();
    const beside = await alongside(() => running);
    const exportMs = await settled;
    clearInterval(sampler);
    await polling;
    const secondsOf = new Map(typeStarted.map(([type, at], i) => [type, r(((typeStarted[i + 1]?.[1] ?? exportMs) - at) / 1000)]));

    const manifest = await app.inject({ method: 'GET', url: status, headers });
    if (manifest.statusCode !== 200) throw new Error(`manifest: ${manifest.statusCode} ${manifest.body}`);
    const output = (manifest.json() as { output: { type: string; url: string; count: number }[] }).output;
    const d0 = performance.now();
    let lines = 0;
    let bytes = 0;
    for (const file of output) {
      const res = await fetch(base + new URL(file.url).pathname, { headers: { authorization: headers.authorization } });
      if (res.status !== 200) throw new Error(`${file.type}: ${res.status} ${await res.text()}`);
      const body = res.body!.getReader();
      for (let read = await body.read(); !read.done; read = await body.read()) {
        bytes += read.value.length;
        for (let i = read.value.indexOf(10); i !== -1; i = read.value.indexOf(10, i + 1)) lines++;
      }
    }
    const downloadSeconds = (performance.now() - d0) / 1000;
    await app.inject({ method: 'DELETE', url: status, headers });
    const resources = output.reduce((sum, file) => sum + file.count, 0);
    return {
      resources,
      exportSeconds: r(exportMs / 1000),
      resourcesPerSecond: Math.round(resources / (exportMs / 1000)),
      download: { seconds: r(downloadSeconds), mb: mb(bytes), lines, linesMatchManifest: lines === resources },
      totalSeconds: r(exportMs / 1000 + downloadSeconds),
      memory: {
        rssBeforeMb: mb(before.rss),
        peakRssMb: mb(peak.rss),
        peakRssDeltaMb: mb(peak.rss - before.rss),
        heapUsedBeforeMb: mb(before.heapUsed),
        peakHeapUsedMb: mb(peak.heapUsed),
      },
      // Seconds from the first status naming a type to the next's (200 ms apart: a type shorter than that is counted in the one before).
      byType: Object.fromEntries(output.map((file) => [file.type, { count: file.count, seconds: secondsOf.get(file.type) ?? null }])),
      beside,
    };
  }

  /** The patients' first page, `RUNS` times one after another, `gapMs` apart; with the event loop's delay meanwhile. */
  async function listPatients(gapMs: number, running: () => boolean = () => false) {
    const times: number[] = [];
    const statuses: number[] = [];
    let whileRunning = 0;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/patients?limit=20', headers: { cookie } });
      times.push(performance.now() - t0);
      statuses.push(res.statusCode);
      if (running()) whileRunning++;
      await sleep(gapMs);
    }
    loop.disable();
    const eventLoopDelay = { p99Ms: r(loop.percentile(99) / 1e6), maxMs: r(loop.max / 1e6) };
    return { ...latency(times, statuses), whileExportRan: whileRunning, eventLoopDelay };
  }

  const none = async () => null;
  const sizes = [];
  let seeded = 0;
  for (const size of SIZES) {
    const seedSeconds = await growTo(size, seeded, { nurseId: nurse.id, scribeId: scribe.id });
    // A first export warms the process (code, pools, the allocator's pages), so that both sizes' figures start alike.
    if (seeded === 0) log(`warm-up export: ${(await exportAll(none)).exportSeconds} s`);
    seeded = size;
    const { beside: _, ...figures } = await exportAll(none);
    log(`${size} patients: ${figures.resources} resources in ${figures.exportSeconds} s, peak RSS +${figures.memory.peakRssDeltaMb} MB`);
    sizes.push({ patients: size, seedSeconds, ...figures });
  }
  const [small, large] = [sizes[0]!, sizes.at(-1)!];

  // The list at the larger size, spread over about an export's length: alone first, then during one.
  const gapMs = Math.round((large.exportSeconds * 1000 * 0.8) / RUNS);
  for (let i = 0; i < WARMUP; i++) await app.inject({ method: 'GET', url: '/api/patients?limit=20', headers: { cookie } });
  const baseline = await listPatients(gapMs);
  log(`list alone: p99 ${baseline.p99Ms} ms`);
  const during = await exportAll((running) => listPatients(gapMs, running));
  log(`list during an export: p99 ${during.beside.p99Ms} ms`);

  const resourcesRatio = ratio(large.resources, small.resources);
  console.log(
    JSON.stringify(
      {
        engine: bench.engine,
        node: process.version,
        cpus: os.cpus().length,
        exports: sizes,
        scaling: {
          patients: [small.patients, large.patients],
          resourcesRatio,
          secondsRatio: ratio(large.exportSeconds, small.exportSeconds),
          // Above resourcesRatio: the type's pages cost more as the clinic grows.
          secondsRatioByType: Object.fromEntries(
            Object.entries(large.byType).map(([type, { seconds }]) => [
              type,
              seconds && small.byType[type]?.seconds ? ratio(seconds, small.byType[type].seconds) : null,
            ]),
          ),
          peakRssDeltaMb: [small.memory.peakRssDeltaMb, large.memory.peakRssDeltaMb],
          peakRssDeltaRatio: ratio(large.memory.peakRssDeltaMb, small.memory.peakRssDeltaMb),
          peakHeapUsedMb: [small.memory.peakHeapUsedMb, large.memory.peakHeapUsedMb],
          peakHeapUsedRatio: ratio(large.memory.peakHeapUsedMb, small.memory.peakHeapUsedMb),
        },
        patientsList: {
          request: 'GET /api/patients?limit=20 (session)',
          patients: large.patients,
          gapMs,
          baseline,
          duringExport: during.beside,
          p99Ratio: ratio(during.beside.p99Ms, baseline.p99Ms),
          p50Ratio: ratio(during.beside.p50Ms, baseline.p50Ms),
          targetP99RatioAtMost2: during.beside.p99Ms <= 2 * baseline.p99Ms,
          exportWithListSeconds: during.exportSeconds,
          exportAloneSeconds: large.exportSeconds,
        },
      },
      null,
      2,
    ),
  );
  await app.close();
} finally {
  await bench.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
