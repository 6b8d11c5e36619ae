/**
 * Lab orders at clinic-network scale (issue 30): 1,000,000 orders (BENCH_LAB_ORDERS) of which
 * 10,000 have results waiting for review (BENCH_LAB_OPEN) and 5,000 are outstanding, read
 * through the real API (session, validation, scope, audit row, total) as the Lab Orders screen
 * asks for them: the Outstanding and Results-to-review lists (an admin's, every order; a nurse's,
 * her own), their later pages, one patient's orders, and All. Then the critical alert: a result
 * at a critical value saved through the API, timed from the request's start to the ordering
 * provider's socket receiving the notification (BENCH_LAB_ALERTS, 60 rounds). On PGlite, or on a
 * fresh database on the PostgreSQL server in BENCH_DATABASE_URL (dropped afterwards). Prints JSON
 * figures and the lists' plans (EXPLAIN ANALYZE); nothing here asserts a time.
 */
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { createDatabaseEventBus } from '../server/events/event-bus.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const ORDERS = Number(process.env.BENCH_LAB_ORDERS ?? 1_000_000);
const OPEN = Number(process.env.BENCH_LAB_OPEN ?? 10_000);
const OUTSTANDING = Number(process.env.BENCH_LAB_OUTSTANDING ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const ALERTS = Number(process.env.BENCH_LAB_ALERTS ?? 60);
const WARMUP = 5;
const PATIENTS = 20_000;
const NURSES = 20;

const bench = await openBenchDatabase('labs');
const { database, db } = bench;

try {
  const started = Date.now();
  const admin = await createUser(db, { role: 'admin' });
  const nurse = await createUser(db, { role: 'nurse' });
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-nurse-' || i || '@bench.clinic', 'Nurse' || i, 'Bench' || i, 'nurse' from generate_series(1, ${NURSES - 1}) i`);
  await db.execute(sql`insert into patients (first_name, last_name, date_of_birth, sex)
    select 'Pat' || i, 'Bench' || i, date '1950-01-01' + (i % 20000), (array['female', 'male'])[1 + i % 2] from generate_series(1, ${PATIENTS}) i`);
  const [test] = await queryRows<{ id: string }>(db, sql`insert into lab_tests (name) values ('Basic metabolic panel') returning id`);
  const [potassium] = await queryRows<{ id: string }>(
    db,
    sql`insert into lab_analytes (test_id, position, name, unit, kind) values (${test!.id}::uuid, 0, 'Potassium', 'mmol/L', 'numeric') returning id`,
  );
  await db.execute(sql`insert into lab_ranges (analyte_id, low, high, critical_low, critical_high) values (${potassium!.id}::uuid, 3.5, 5.1, 2.5, 6.5)`);

  // Orders over five years, newest last: the oldest all received and reviewed; then OPEN with
  // results waiting (one in ten abnormal, one in a hundred critical); then OUTSTANDING ordered or
  // collected (one in five urgent, one in twenty STAT). A nurse of the bench is the provider of
  // one order in NURSES, as in a clinic of that many.
  const reviewed = ORDERS - OPEN - OUTSTANDING;
  for (let from = 0; from < ORDERS; from += 50_000) {
    const to = Math.min(ORDERS, from + 50_000) - 1;
    await db.execute(sql`
      with staff as (
        select (select array_agg(id order by email) from users where role = 'nurse') as nurses,
               (select array_agg(id order by id) from patients) as people
      )
      insert into lab_orders (patient_id, provider_id, test_id, order_name, status, priority, is_urgent, ordered_at, received_at,
        reviewed_at, reviewed_by_id, worst_flag, flag_rank, created_at, updated_at)
      select people[1 + i % ${PATIENTS}], nurses[1 + i % ${NURSES}], ${test!.id}::uuid, 'Basic metabolic panel',
        (case when i < ${reviewed + OPEN} then 'received' when i % 3 = 0 then 'pending' else 'ordered' end)::lab_order_status,
        (case when i % 20 = 0 then 'stat' when i % 5 = 0 then 'urgent' else 'routine' end)::lab_priority, i % 5 = 0,
        at, case when i < ${reviewed + OPEN} then at + interval '1 day' end,
        case when i < ${reviewed} then at + interval '2 days' end, case when i < ${reviewed} then nurses[1 + i % ${NURSES}] end,
        case when i < ${reviewed + OPEN} then (case when i % 100 = 0 then 'HH' when i % 10 = 0 then 'H' else 'N' end) end,
        case when i < ${reviewed + OPEN} then (case when i % 100 = 0 then 2 when i % 10 = 0 then 1 else 0 end) else 0 end,
        at, at
      from staff, generate_series(${from}::int, ${to}::int) i,
        lateral (select timestamptz '2021-01-01T00:00:00Z' + make_interval(mins => (i * 2.6)::int) as at) t`);
  }
  await db.execute(sql`vacuum analyze lab_orders`);
  await db.execute(sql`vacuum analyze patients`);
  await db.execute(sql`vacuum analyze users`);
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: 'America/New_York' });
  const events = await createDatabaseEventBus(database);
  const app = await buildApp(config, db, { events });
  const signIn = async (email: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });
    return res.cookies.find((c) => c.name === 'sid')!.value;
  };
  const asAdmin = `sid=${await signIn(admin.email)}`;
  const nurseSid = await signIn(nurse.email);
  const asNurse = `sid=${nurseSid}`;

  async function time(name: string, urlOf: (i: number) => string, cookie: string) {
    const times: number[] = [];
    let items = 0;
    let total: string | undefined;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: urlOf(i), headers: { cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      if (i >= WARMUP) times.push(ms);
      items = (res.json() as unknown[]).length;
      total = res.headers['x-total-count'] as string | undefined;
    }
    times.sort((a, b) => a - b);
    return {
      name,
      items,
      total: total === undefined ? null : Number(total),
      p50Ms: r(quantile(times, 0.5)),
      p95Ms: r(quantile(times, 0.95)),
      maxMs: r(times.at(-1)!),
    };
  }
  const cursorAfter = async (first: string, cookie: string, pages: number) => {
    let res = await app.inject({ method: 'GET', url: first, headers: { cookie } });
    for (let p = 1; p < pages; p++) res = await app.inject({ method: 'GET', url: `${first}&cursor=${res.headers['x-next-cursor']}`, headers: { cookie } });
    return String(res.headers['x-next-cursor']);
  };
  const [somePatient] = await queryRows<{ id: string }>(db, sql`select patient_id as id from lab_orders where status = 'received' limit 1`);
  const reviewCursor = await cursorAfter('/api/lab-orders?view=review', asAdmin, 5);
  const outstandingCursor = await cursorAfter('/api/lab-orders?view=outstanding', asAdmin, 5);

  const lists = [
    await time('outstanding, first page (admin)', () => '/api/lab-orders?view=outstanding', asAdmin),
    await time('outstanding, sixth page', () => `/api/lab-orders?view=outstanding&cursor=${outstandingCursor}`, asAdmin),
    await time('results to review, first page (admin: every order)', () => '/api/lab-orders?view=review', asAdmin),
    await time("results to review, first page (a nurse's own)", () => '/api/lab-orders?view=review', asNurse),
    await time('results to review, sixth page', () => `/api/lab-orders?view=review&cursor=${reviewCursor}`, asAdmin),
    await time("one patient's orders", () => `/api/lab-orders?patientId=${somePatient!.id}`, asAdmin),
    await time('all, first page', () => '/api/lab-orders?view=all', asAdmin),
  ];

  // The critical alert: the provider on a live socket; each round a new order of hers gets a
  // critical potassium through the API, and the clock runs from the request to the socket.
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: { cookie: asNurse, origin: base } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let arrived: (() => void) | null = null;
  ws.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string; title?: string };
    if (message.type === 'notification' && message.title === 'Critical lab result') arrived?.();
  });
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + ALERTS; i++) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/lab-orders',
      headers: { cookie: asNurse },
      payload: { patientId: somePatient!.id, testId: test!.id, priority: 'stat' },
    });
    const id = (created.json() as { id: string }).id;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const t0 = performance.now();
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/lab-orders/${id}/results`,
      headers: { cookie: asAdmin },
      payload: { results: [{ analyteId: potassium!.id, value: 7.1 }] },
    });
    if (saved.statusCode !== 200) throw new Error(`results: ${saved.statusCode} ${saved.body}`);
    await received;
    if (i >= WARMUP) latencies.push(performance.now() - t0);
  }
  ws.close();
  latencies.sort((a, b) => a - b);
  const alert = { rounds: ALERTS, p50Ms: r(quantile(latencies, 0.5)), p99Ms: r(quantile(latencies, 0.99)), maxMs: r(latencies.at(-1)!) };

  const plan = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off, timing on, summary on) ${query}`)).map((row) => row['QUERY PLAN']);
  const plans = {
    review: await plan(sql`select id from lab_orders where status = 'received' and reviewed_at is null
      order by flag_rank desc nulls last, received_at, id limit 51`),
    reviewTotal: await plan(sql`select count(*) from lab_orders where status = 'received' and reviewed_at is null`),
    outstanding: await plan(sql`select id from lab_orders where status in ('ordered', 'pending') order by priority desc nulls last, ordered_at, id limit 51`),
  };

  console.log(
    JSON.stringify({ engine: database.engine, orders: ORDERS, open: OPEN, outstanding: OUTSTANDING, seedSeconds, runs: RUNS, lists, alert, plans }, null, 2),
  );
  await app.close();
  await events.close();
} finally {
  await bench.close();
}
