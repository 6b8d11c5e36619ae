/**
 * The clinical chart at its issue's sizes (issue 51): one patient with 30 allergies, 50 problems,
 * 40 medications and 2,000 vital-sign sets over ten years (BENCH_CHART_VITALS), among 20,000
 * patients with a few entries each, read through the real API (session, validation, scope, audit
 * row) as the chart screen reads it: the whole chart in one request, each sign's ten-year trend
 * (systolic, weight, BMI computed), and her record with the allergy banner's summary beside
 * `/api/auth/user` as the same run's baseline. p50/p95/max of BENCH_RUNS (60), with the plans of
 * the vitals' reads. On PGlite, or on a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards). Nothing here asserts a time.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { createDatabaseEventBus } from '../server/events/event-bus.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const VITALS = Number(process.env.BENCH_CHART_VITALS ?? 2_000);
const PATIENTS = Number(process.env.BENCH_CHART_PATIENTS ?? 20_000);
const WARMUP = 5;

const bench = await openBenchDatabase('chart');
const { database, db } = bench;

try {
  const started = Date.now();
  const nurse = await createUser(db, { role: 'nurse' });
  await db.execute(sql`insert into patients (first_name, last_name, date_of_birth, sex)
    select 'Pat' || i, 'Chart' || i, date '1950-01-01' + (i % 20000), (array['female', 'male'])[1 + i % 2] from generate_series(1, ${PATIENTS}) i`);
  const [subject] = await queryRows<{ id: string }>(db, sql`select id from patients order by id limit 1`);
  const meta = sql`'confirmed', now(), ${nurse.id}::uuid, now(), ${nurse.id}::uuid, now(), now()`;
  const metaColumns = sql.raw('state, recorded_at, recorded_by_id, confirmed_at, confirmed_by_id, created_at, updated_at');
  // Everyone else: two allergies, three problems, two medications and ten vital-sign sets each.
  await db.execute(sql`insert into patient_allergies (patient_id, substance_kind, substance_code, substance_name, type, category, reactions, criticality, status, ${metaColumns})
    select p.id, 'text', null, 'Substance ' || k, 'allergy', 'medication', array['Rash'], 'low', 'active', ${meta}
    from patients p, generate_series(1, case when p.id = ${subject!.id}::uuid then 30 else 2 end) k`);
  await db.execute(sql`insert into patient_problems (patient_id, code, name, clinical_status, verification, ${metaColumns})
    select p.id, 'I10', 'Essential (primary) hypertension', 'active', 'confirmed', ${meta}
    from patients p, generate_series(1, case when p.id = ${subject!.id}::uuid then 50 else 3 end) k`);
  await db.execute(sql`insert into patient_medications (patient_id, name, dose, frequency, status, source, ${metaColumns})
    select p.id, 'Lisinopril 10 mg tablet', '1 tablet', 'once daily', 'active', 'prescribed_here', ${meta}
    from patients p, generate_series(1, case when p.id = ${subject!.id}::uuid then 40 else 2 end) k`);
  await db.execute(sql`insert into vital_signs (patient_id, taken_at, systolic, diastolic, heart_rate, temperature, weight, height, status, ${metaColumns})
    select p.id, now() - make_interval(days => (k * 3650 / ${VITALS})::int, mins => k), 110 + k % 40, 70 + k % 20, 60 + k % 30, 36.5, 70 + (k % 10), 170, 'final', ${meta}
    from patients p, generate_series(1, case when p.id = ${subject!.id}::uuid then ${VITALS}::int else 10 end) k`);
  for (const table of ['patients', 'patient_allergies', 'patient_problems', 'patient_medications', 'vital_signs'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: 'America/New_York' });
  const events = await createDatabaseEventBus(database);
  const app = await buildApp(config, db, { events });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: nurse.email, password: TEST_PASSWORD } });
  const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;

  async function time(name: string, url: string) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      if (i >= WARMUP) times.push(ms);
      bytes = res.rawPayload.length;
    }
    times.sort((a, b) => a - b);
    return { name, bytes, p50Ms: r(quantile(times, 0.5)), p95Ms: r(quantile(times, 0.95)), maxMs: r(times.at(-1)!) };
  }

  const id = subject!.id;
  const reads = [
    await time('baseline: /api/auth/user', '/api/auth/user'),
    await time('the whole chart (30 allergies, 50 problems, 40 medications, latest vitals)', `/api/patients/${id}/chart`),
    await time('her record with the allergy banner', `/api/patients/${id}`),
    await time(`systolic trend (${VITALS} sets, ten years)`, `/api/patients/${id}/vitals/trend?sign=systolic`),
    await time('weight trend', `/api/patients/${id}/vitals/trend?sign=weight`),
    await time('BMI trend (computed)', `/api/patients/${id}/vitals/trend?sign=bmi`),
  ];
  const baseline = reads[0]!.p50Ms;

  const plan = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off, timing on, summary on) ${query}`)).map((row) => row['QUERY PLAN']);
  const plans = {
    latestVitals: await plan(sql`select id from vital_signs where patient_id = ${id}::uuid order by taken_at desc, id desc limit 10`),
    trend: await plan(
      sql`select taken_at, systolic from vital_signs where patient_id = ${id}::uuid and status = 'final' and systolic is not null order by taken_at`,
    ),
  };

  console.log(
    JSON.stringify(
      {
        engine: database.engine,
        patients: PATIENTS,
        vitals: VITALS,
        seedSeconds,
        runs: RUNS,
        reads: reads.map((read) => ({ ...read, p50ToBaseline: r(read.p50Ms / baseline) })),
        plans,
      },
      null,
      2,
    ),
  );
  await app.close();
  await events.close();
} finally {
  await bench.close();
}
