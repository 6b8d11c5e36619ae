/**
 * Reports at clinic-network scale (issue 34): 1,000,000 patients (BENCH_PATIENTS), 5,000,000
 * appointments (BENCH_APPOINTMENTS) over five years in 140 rooms, and 2,000,000 notes
 * (BENCH_NOTES) with their revisions, plus lab and supply orders. Each report is read for the
 * last 12 months through the real API (session, validation, the report's SQL), BENCH_RUNS times
 * after a warm-up, and the no-show records of a range holding BENCH_CSV_ROWS appointments are
 * streamed as CSV while the heap is sampled. On a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards), else on PGlite (smaller defaults make sense there).
 * Prints JSON figures and the plans (EXPLAIN ANALYZE) of the slowest; nothing here asserts a time.
 */
import { sql } from 'drizzle-orm';
import { REPORT_IDS } from '#domain/reports';
import { addDays, zonedDate } from '#domain/clinic-time';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 1_000_000);
const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 5_000_000);
const NOTES = Number(process.env.BENCH_NOTES ?? 2_000_000);
const LABS = Number(process.env.BENCH_LAB_ORDERS ?? 500_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const ROOMS = 140;
const SLOTS = 20; // 08:00 to 18:00, 30 minutes each
const PER_DAY = ROOMS * SLOTS;
const BATCH = 250_000;
const ZONE = 'America/New_York';

/** A database to keep between runs (PostgreSQL only): seeded once, then only migrated and read. */
const bench = await openBenchDatabase('reports', { keep: process.env.BENCH_REPORTS_KEEP_DB });
const { db, url } = bench;

const today = zonedDate(new Date(), ZONE);

/** The data set, on an empty database; answers its admin. */
async function seed() {
  const started = Date.now();
  const admin = await createUser(db, { role: 'admin' });
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-nurse-' || i || '@bench.clinic', 'Nurse' || i, 'Bench', 'nurse' from generate_series(1, ${ROOMS}) i`);
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-scribe-' || i || '@bench.clinic', 'Scribe' || i, 'Bench', 'scribe' from generate_series(1, ${ROOMS}) i`);
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-scheduler-' || i || '@bench.clinic', 'Scheduler' || i, 'Bench', 'scheduler' from generate_series(1, 20) i`);
  for (let from = 1; from <= PATIENTS; from += BATCH) {
    await db.execute(sql`insert into patients (first_name, last_name, date_of_birth)
      select 'Pat' || i, 'Bench' || i, date '1940-01-01' + (i % 25000) from generate_series(${from}::int, ${Math.min(PATIENTS, from + BATCH - 1)}::int) i`);
  }
  log(`patients in ${r((Date.now() - started) / 1000)} s`);
  // A table of ids by number, so a row's staff and patient are a join away, not an array scan.
  await db.execute(sql`create unlogged table bench_people as select row_number() over (order by id) as n, id from patients`);
  await db.execute(sql`create unique index on bench_people (n)`);
  await db.execute(sql`create unlogged table bench_staff as
    select role::text as role, row_number() over (partition by role order by email) as n, id from users where email like 'bench-%'`);
  await db.execute(sql`create unique index on bench_staff (role, n)`);

  // Appointments: five years back from today, PER_DAY a day, room k of 140 and its nurse and
  // scribe, in 20 half-hour slots from 08:00 UTC; every status, cancellations with their time.
  const firstDay = addDays(today, -Math.ceil(APPOINTMENTS / PER_DAY));
  for (let from = 0; from < APPOINTMENTS; from += BATCH) {
    const to = Math.min(APPOINTMENTS, from + BATCH) - 1;
    await db.execute(sql`
      insert into appointments (patient_id, provider_id, appointment_date, duration, appointment_type, status, room_number,
        assigned_nurse_id, assigned_scribe_id, checked_in_at, completed_at, cancelled_at, created_at, updated_at)
      select p.id, sch.id, t.at, 30, (array['consultation', 'follow_up', 'urgent_care', 'physical_exam', 'lab_review', null])[1 + i % 6],
        s.status::appointment_status, (1 + (i % ${PER_DAY}) % ${ROOMS})::text, nurse.id, scribe.id,
        case when s.status = 'completed' then t.at end, case when s.status = 'completed' then t.at + interval '30 minutes' end,
        case when s.status = 'cancelled' then t.at - make_interval(hours => (i % 72)) end, t.at - interval '7 days', t.at
      from generate_series(${from}::int, ${to}::int) i
      cross join lateral (select ${`${firstDay}T08:00:00Z`}::timestamptz + make_interval(days => i / ${PER_DAY}, mins => 30 * ((i % ${PER_DAY}) / ${ROOMS})) as at) t
      cross join lateral (select case when i % 100 < 8 then 'cancelled' when i % 100 < 15 then 'no_show'
        when t.at > now() then 'scheduled' else 'completed' end as status) s
      join bench_people p on p.n = 1 + i % ${PATIENTS}
      join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + (i % ${PER_DAY}) % ${ROOMS}
      join bench_staff scribe on scribe.role = 'scribe' and scribe.n = 1 + (i % ${PER_DAY}) % ${ROOMS}
      join bench_staff sch on sch.role = 'scheduler' and sch.n = 1 + i % 20`);
    log(`appointments ${to + 1} in ${r((Date.now() - started) / 1000)} s`);
  }

  // Notes: one for every 2.5 appointments, by the visit's nurse, with the revisions the workflow
  // writes (created 2 h after the visit, submitted, reviewed, finalized; one in ten still open).
  const notesPerAppointment = APPOINTMENTS / NOTES;
  for (let from = 0; from < NOTES; from += BATCH) {
    const to = Math.min(NOTES, from + BATCH) - 1;
    await db.execute(sql`
      with made as (
        insert into patient_notes (patient_id, author_id, note_type, content, status, scribe_id, reviewed_at, finalized_at, created_at, updated_at)
        select p.id, nurse.id, 'Progress Note', 'Seen.', (case when j % 10 = 0 then 'submitted_to_scribe' else 'finalized' end)::note_status,
          scribe.id, case when j % 10 <> 0 then t.at + interval '20 hours' end, case when j % 10 <> 0 then t.at + interval '40 hours' end, t.at, t.at
        from generate_series(${from}::int, ${to}::int) j
        cross join lateral (select (j * ${notesPerAppointment}::float8)::int as i) k
        cross join lateral (select ${`${firstDay}T10:30:00Z`}::timestamptz + make_interval(days => k.i / ${PER_DAY}, mins => 30 * ((k.i % ${PER_DAY}) / ${ROOMS})) as at) t
        join bench_people p on p.n = 1 + k.i % ${PATIENTS}
        join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + (k.i % ${PER_DAY}) % ${ROOMS}
        join bench_staff scribe on scribe.role = 'scribe' and scribe.n = 1 + (k.i % ${PER_DAY}) % ${ROOMS}
        returning id, author_id, scribe_id, status, created_at
      )
      insert into note_revisions (note_id, at, actor_id, action, from_status, to_status)
      select m.id, m.created_at, m.author_id, 'created', null::note_status, 'draft'::note_status from made m
      union all select m.id, m.created_at + interval '3 hours', m.author_id, 'moved', 'draft', 'submitted_to_scribe' from made m
      union all select m.id, m.created_at + interval '20 hours', m.scribe_id, 'moved', 'submitted_to_scribe', 'reviewed_by_scribe' from made m where m.status = 'finalized'
      union all select m.id, m.created_at + interval '40 hours', ${admin.id}::uuid, 'moved', 'reviewed_by_scribe', 'finalized' from made m where m.status = 'finalized'`);
    log(`notes ${to + 1} in ${r((Date.now() - started) / 1000)} s`);
  }

  // Lab orders over the same five years (one in five urgent, one in twenty STAT), and supply orders.
  await db.execute(sql`
    insert into lab_orders (patient_id, provider_id, order_name, status, priority, ordered_at, received_at, reviewed_at, first_reviewed_at, expected_on, created_at, updated_at)
    select p.id, nurse.id, 'Basic metabolic panel',
      (case when t.at > now() - interval '2 days' then 'ordered' else 'received' end)::lab_order_status,
      (case when i % 20 = 0 then 'stat' when i % 5 = 0 then 'urgent' else 'routine' end)::lab_priority, t.at,
      case when t.at <= now() - interval '2 days' then t.at + make_interval(hours => 4 + i % 40) end,
      case when t.at <= now() - interval '4 days' then t.at + make_interval(hours => 50 + i % 30) end,
      case when t.at <= now() - interval '4 days' then t.at + make_interval(hours => 50 + i % 30) end,
      (t.at + interval '1 day')::date, t.at, t.at
    from generate_series(0, ${LABS - 1}) i
    cross join lateral (select ${`${firstDay}T09:00:00Z`}::timestamptz + make_interval(mins => (i * ${(APPOINTMENTS / PER_DAY) * 1440}::float8 / ${LABS})::int) as at) t
    join bench_people p on p.n = 1 + i % ${PATIENTS}
    join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + i % ${ROOMS}`);
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-supplier-' || i || '@bench.clinic', 'Supplier' || i, 'Bench', 'supplier' from generate_series(1, 10) i`);
  await db.execute(sql`
    insert into supply_orders (order_number, supplier_id, requested_by_id, items, total_amount, status, ordered_at, ready_at, picked_up_at)
    select 'SO-BENCH-' || i, s.id, ${admin.id}::uuid,
      jsonb_build_array(jsonb_build_object('itemId', gen_random_uuid(), 'name', 'Gauze', 'unit', 'box', 'quantity', 10, 'unitPriceCents', 100,
        'lineTotalCents', 1000, 'receivedQuantity', case when i % 7 = 0 then 8 else 10 end)), 1000, 'completed',
      t.at, t.at + interval '1 day', t.at + interval '30 hours'
    from generate_series(0, 49999) i
    cross join lateral (select ${`${firstDay}T09:00:00Z`}::timestamptz + make_interval(mins => (i * ${(APPOINTMENTS / PER_DAY) * 1440}::float8 / 50000)::int) as at) t
    join (select id, row_number() over (order by email) as n from users where role = 'supplier') s on s.n = 1 + i % 10`);
  return admin;
}

const log = (message: string) => process.stderr.write(`[reports bench] ${message}\n`);

try {
  const started = Date.now();
  const [seeded] = await queryRows<{ id: string; email: string }>(
    db,
    sql`select id, email from users where role = 'admin' and email not like 'bench-%' limit 1`,
  );
  const admin = seeded ?? (await seed());
  // As autovacuum leaves a clinic's tables after the load (and after a migration's backfill).
  for (const table of ['appointments', 'patient_notes', 'note_revisions', 'note_milestones', 'lab_orders', 'supply_orders', 'patients', 'users'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  const seedSeconds = r((Date.now() - started) / 1000);
  log(seeded ? 'seeded before' : `seeded in ${seedSeconds} s`);

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: ZONE });
  const app = await buildApp(config, db);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;
  await app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers: { cookie },
    payload: { clinicName: 'Bench', timeZone: ZONE, sessionIdleMinutes: 480, rooms: Array.from({ length: ROOMS }, (_, k) => String(k + 1)) },
  });

  const to = addDays(today, -1);
  const from = addDays(to, -364);
  const reports = [];
  for (const id of REPORT_IDS) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/reports/${id}?from=${from}&to=${to}`, headers: { cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${id}: ${res.statusCode} ${res.body}`);
      rows = (res.json() as { rows: unknown[] }).rows.length;
      if (i >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    reports.push({ report: id, months: 12, rows, p50Ms: r(quantile(times, 0.5)), p95Ms: r(quantile(times, 0.95)), maxMs: r(times.at(-1)!) });
    log(`${id}: p95 ${reports.at(-1)!.p95Ms} ms`);
  }

  // The CSV of records: the last days holding CSV_ROWS appointments (and a tenth and three times
  // that, to see the heap does not grow with the rows), through a listening server, read as a
  // stream while the live heap is sampled every 50 ms (after a collection, when the bench runs
  // with --expose-gc: what is kept, not garbage waiting for the collector).
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  async function exportRecords(rows: number) {
    const days = Math.ceil(rows / PER_DAY) + 1;
    if (global.gc) global.gc();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      global.gc?.();
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 50);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/reports/no-shows/records.csv?from=${addDays(to, -(days - 1))}&to=${to}`, { headers: { cookie } });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    return { status: res.status, rows: lines - 1, megabytes: r(bytes / 1e6), seconds: r(seconds), heapGrowthMb: r((heapPeak - heapBefore) / 1e6) };
  }
  const csv = {
    liveHeapMeasured: global.gc !== undefined,
    tenth: await exportRecords(CSV_ROWS / 10),
    full: await exportRecords(CSV_ROWS),
    triple: await exportRecords(CSV_ROWS * 3),
  };

  const slowest = [...reports].sort((a, b) => b.p95Ms - a.p95Ms)[0]!;
  const counts = await queryRows<{ appointments: number; notes: number; revisions: number; patients: number }>(
    db,
    sql`select (select count(*) from appointments)::int as appointments, (select count(*) from patient_notes)::int as notes,
      (select count(*) from note_revisions)::int as revisions, (select count(*) from patients)::int as patients`,
  );
  console.log(
    JSON.stringify({ engine: url ? 'postgres' : 'pglite', seedSeconds, data: counts[0], range: { from, to }, reports, csv, slowest: slowest.report }, null, 2),
  );
  await app.close();
} finally {
  await bench.close();
}
