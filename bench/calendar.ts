/**
 * The calendar at clinic scale: 100,000 appointments (BENCH_APPOINTMENTS) in one month, spread
 * over rooms, nurses and scribes so the no-double-booking constraints hold, read through the real
 * API (session, validation, names joined by the privacy rule, audit row, total) as the month view
 * and the day view ask for them. On PGlite, or on a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards). Prints JSON figures, with the plans of the month
 * page's queries (EXPLAIN ANALYZE) to show which indexes serve them; nothing here asserts a time.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';

const COUNT = Number(process.env.BENCH_APPOINTMENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
/** 30-minute slots through January 2030 (1,488 of them): each slot holds LANES appointments, one per room, nurse and scribe. */
const MONTH = { first: '2030-01-01', last: '2030-01-31' };
const SLOT_MINUTES = 30;
const LANES = Math.ceil(COUNT / ((31 * 24 * 60) / SLOT_MINUTES));
const PATIENTS = 10_000;
const ZONE = 'America/New_York';

const bench = await openBenchDatabase('calendar');
const { database, db } = bench;

try {
  const started = Date.now();
  const scheduler = await createUser(db, { role: 'scheduler' });
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-' || r || '-' || i || '@bench.clinic', 'Staff' || i, initcap(r) || i, r::user_role
    from generate_series(0, ${LANES - 1}) i, unnest(array['nurse', 'scribe']) r`);
  await db.execute(sql`insert into patients (first_name, last_name, date_of_birth)
    select 'Pat' || i, 'Bench' || i, date '1950-01-01' + (i % 20000) from generate_series(1, ${PATIENTS}) i`);
  // Lane k of every slot is room R<k>, nurse k and (for most lanes) scribe k; the patients of one
  // slot are consecutive, so all different. A few in every hundred are cancelled or completed.
  for (let from = 0; from < COUNT; from += 20_000) {
    const to = Math.min(COUNT, from + 20_000) - 1;
    await db.execute(sql`
      with staff as (
        select (select array_agg(id order by email) from users where role = 'nurse' and email like 'bench-nurse-%') as nurses,
               (select array_agg(id order by email) from users where role = 'scribe' and email like 'bench-scribe-%') as scribes,
               (select array_agg(id order by id) from patients where last_name like 'Bench%') as people
      )
      insert into appointments (patient_id, provider_id, appointment_date, duration, appointment_type, status, room_number,
        assigned_nurse_id, assigned_scribe_id, reason)
      select people[1 + i % ${PATIENTS}], ${scheduler.id}::uuid,
        timestamptz '2030-01-01T00:00:00Z' + make_interval(mins => (i / ${LANES}) * ${SLOT_MINUTES}), ${SLOT_MINUTES},
        (array['consultation', 'follow_up', 'urgent_care', 'physical_exam', 'lab_review'])[1 + i % 5],
        (case when i % 50 = 7 then 'cancelled' when i % 20 = 3 then 'completed' else 'scheduled' end)::appointment_status,
        'R' || (i % ${LANES}), nurses[1 + i % ${LANES}], case when i % ${LANES} < ${Math.floor(LANES * 0.75)} then scribes[1 + i % ${LANES}] end,
        'Bench visit'
      from staff, generate_series(${from}::int, ${to}::int) i`);
  }
  // The planner's statistics and (on PostgreSQL) the visibility map, as autovacuum would leave them.
  await db.execute(sql`vacuum analyze appointments`);
  await db.execute(sql`vacuum analyze patients`);
  await db.execute(sql`vacuum analyze users`);
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: ZONE });
  const app = await buildApp(config, db);
  const signIn = async (email: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });
    return `sid=${res.cookies.find((c) => c.name === 'sid')!.value}`;
  };
  const asScheduler = await signIn(scheduler.email);
  const nurse = await createUser(db, { role: 'nurse' });
  const asNurse = await signIn(nurse.email);

  const r = (x: number) => Math.round(x * 10) / 10;
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
      url: urlOf(0),
      items,
      total: total === undefined ? null : Number(total),
      p50Ms: r(times[Math.floor(times.length * 0.5)]!),
      p95Ms: r(times[Math.floor(times.length * 0.95)]!),
      maxMs: r(times.at(-1)!),
    };
  }

  const monthUrl = `/api/appointments?from=${MONTH.first}&to=${MONTH.last}`;
  // Days of the month in turn, so no single day's pages stay warm.
  const dayUrl = (i: number) => `/api/appointments?date=2030-01-${String(2 + (i % 28)).padStart(2, '0')}`;
  const firstPage = await app.inject({ method: 'GET', url: monthUrl, headers: { cookie: asScheduler } });
  let cursor = String(firstPage.headers['x-next-cursor']);
  for (let p = 0; p < 8; p++) {
    const res = await app.inject({ method: 'GET', url: `${monthUrl}&cursor=${cursor}`, headers: { cookie: asScheduler } });
    cursor = String(res.headers['x-next-cursor']);
  }
  const busySlot = new URLSearchParams({ appointmentDate: '2030-01-15T15:10:00Z', duration: '30', roomNumber: 'R3' });

  const queries = [
    await time('month, first page (scheduler: every name joined)', () => monthUrl, asScheduler),
    await time('month, first page (nurse: no names)', () => monthUrl, asNurse),
    await time('month, tenth page', () => `${monthUrl}&cursor=${cursor}`, asScheduler),
    await time('day, first page', dayUrl, asScheduler),
    await time('day, first page of 500', (i) => `${dayUrl(i)}&limit=500`, asScheduler),
    await time('conflicts at a busy slot', () => `/api/appointments/conflicts?${busySlot}`, asScheduler),
  ];

  // The month page's two reads as the list statement makes them (the audit CTE aside).
  const range = sql`appointment_date >= '2030-01-01T05:00:00Z'::timestamptz and appointment_date < '2030-02-01T05:00:00Z'::timestamptz`;
  const plan = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off, timing on, summary on) ${query}`)).map((row) => row['QUERY PLAN']);
  const plans = {
    page: await plan(sql`select a.id, p.first_name from appointments a left join patients p on p.id = a.patient_id
      where ${range} order by a.appointment_date, a.id limit 101`),
    total: await plan(sql`select count(*) from appointments where ${range}`),
    conflicts: await plan(sql`select id from appointments where lower(room_number) = 'r3' and status not in ('cancelled', 'no_show')
      and tstzrange(appointment_date, ends_at, '[)') && tstzrange('2030-01-15T15:10:00Z', '2030-01-15T15:40:00Z', '[)')`),
  };

  console.log(
    JSON.stringify({ engine: database.engine, appointments: COUNT, lanesPerSlot: LANES, patients: PATIENTS, seedSeconds, runs: RUNS, queries, plans }, null, 2),
  );
  await app.close();
} finally {
  await bench.close();
}
