/**
 * Prescriptions at the issue's sizes (issue 52): the checks of one prescription for a patient with
 * 40 active medications and 30 allergies against a formulary of 20,000 products
 * (BENCH_RX_FORMULARY), and the /prescriptions lists over 100,000 prescriptions
 * (BENCH_RX_PRESCRIPTIONS), read through the real API (session, validation, scope, audit row)
 * beside `/api/auth/user` as the same run's baseline. p50/p95/max of BENCH_RUNS (60), with the
 * lists' plans. On PGlite, or on a fresh database on the PostgreSQL server in BENCH_DATABASE_URL
 * (dropped afterwards). Targets: the checks p95 under 30 ms, each list p95 under 50 ms on
 * PostgreSQL. Nothing here asserts a time.
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
const FORMULARY = Number(process.env.BENCH_RX_FORMULARY ?? 20_000);
const PRESCRIPTIONS = Number(process.env.BENCH_RX_PRESCRIPTIONS ?? 100_000);
const PATIENTS = 5_000;
const WARMUP = 5;

const bench = await openBenchDatabase('prescriptions');
const { database, db } = bench;

try {
  const started = Date.now();
  const admin = await createUser(db, { role: 'admin' });
  await db.execute(sql`insert into prescriber_rights (user_id, license_number, license_state, npi, dea_number, granted_at)
    values (${admin.id}::uuid, 'MD-1', 'NY', '1234567893', 'AB1234563', now())`);
  // The starter list plus synthetic products up to FORMULARY, each of one or two made-up ingredients.
  await db.execute(sql`insert into formulary_items (name, ingredients, strength, dose_form, route, atc, source)
    select 'Benchamide ' || i || ' mg tablet', array['benchamide ' || (i % 3000), 'benchazole ' || (i % 500)], i || ' mg', 'tablet', 'oral',
      'Z' || lpad((i % 99)::text, 2, '0') || 'AA' || lpad((i % 99)::text, 2, '0'), 'clinic'
    from generate_series(1, greatest(${FORMULARY}::int - (select count(*)::int from formulary_items), 0)) i`);
  await db.execute(sql`insert into patients (first_name, last_name, date_of_birth, sex)
    select 'Pat' || i, 'Rx' || i, date '1950-01-01' + (i % 20000), (array['female', 'male'])[1 + i % 2] from generate_series(1, ${PATIENTS}) i`);
  const [subject] = await queryRows<{ id: string }>(db, sql`select id from patients order by id limit 1`);
  const meta = sql`'confirmed', now(), ${admin.id}::uuid, now(), ${admin.id}::uuid, now(), now()`;
  const metaColumns = sql.raw('state, recorded_at, recorded_by_id, confirmed_at, confirmed_by_id, created_at, updated_at');
  // Her 30 allergies (ingredients, classes and free text) and 40 active medications from the formulary, some free text.
  await db.execute(sql`insert into patient_allergies (patient_id, substance_kind, substance_code, substance_name, type, category, reactions, criticality, status, ${metaColumns})
    select ${subject!.id}::uuid, (array['ingredient', 'class', 'text'])[1 + k % 3], case when k % 3 = 2 then null else 'benchamide ' || k end,
      'Benchamide ' || k, 'allergy', 'medication', array['Rash'], 'low', 'active', ${meta}
    from generate_series(1, 30) k`);
  await db.execute(sql`insert into patient_medications (patient_id, formulary_id, name, dose, frequency, status, source, ${metaColumns})
    select ${subject!.id}::uuid, case when k % 4 = 0 then null else f.id end, f.name, '1 tablet', 'once daily', 'active', 'patient_reported', ${meta}
    from (select id, name, row_number() over (order by name) k from formulary_items where source = 'clinic' limit 40) f(id, name, k)`);
  const [drug] = await queryRows<{ id: string }>(db, sql`select id from formulary_items where source = 'starter' and name = 'Ibuprofen 400 mg tablet'`);
  // 100,000 prescriptions over five years: most completed, a tenth in force, a few hundred drafts for the prescriber.
  await db.execute(sql`insert into prescriptions (patient_id, formulary_id, medication_name, sig, quantity, quantity_unit, status, prescriber_id, prepared_by_id, signed_at, created_at, updated_at)
    select p.id, ${drug!.id}::uuid, 'Ibuprofen 400 mg tablet',
      '{"doseAmount":1,"doseUnit":"tablet","route":"oral","frequency":"bid","durationDays":10,"asNeeded":false,"asNeededReason":null}'::jsonb, 20, 'tablet',
      case when i % 250 = 0 then 'draft' when i % 10 = 0 then 'active' else 'completed' end, ${admin.id}::uuid, ${admin.id}::uuid,
      now() - make_interval(mins => i * 26), now() - make_interval(mins => i * 26), now() - make_interval(mins => i * 26)
    from generate_series(1, ${PRESCRIPTIONS}) i join (select id, row_number() over (order by id) - 1 as n from patients) p on p.n = i % ${PATIENTS}`);
  for (const table of ['formulary_items', 'patients', 'patient_allergies', 'patient_medications', 'prescriptions'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: 'America/New_York' });
  const events = await createDatabaseEventBus(database);
  const app = await buildApp(config, db, { events });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;

  async function time(name: string, request: { method: 'GET' | 'POST'; url: string; payload?: object }) {
    const times: number[] = [];
    let detail = '';
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ ...request, headers: { cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      if (i >= WARMUP) times.push(ms);
      detail = request.method === 'POST' ? `${(res.json() as { alerts: unknown[] }).alerts.length} alerts` : `${(res.json() as unknown[]).length} rows`;
    }
    times.sort((a, b) => a - b);
    return { name, detail, p50Ms: r(quantile(times, 0.5)), p95Ms: r(quantile(times, 0.95)), maxMs: r(times.at(-1)!) };
  }

  const sig = { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'tid' };
  const reads = [
    await time('baseline: /api/auth/user', { method: 'GET', url: '/api/auth/user' }),
    await time('checks: 40 medications, 30 allergies', {
      method: 'POST',
      url: '/api/prescriptions/check',
      payload: { patientId: subject!.id, formularyId: drug!.id, sig },
    }),
    await time('list: recent (all, newest first)', { method: 'GET', url: '/api/prescriptions?view=recent' }),
    await time('list: active', { method: 'GET', url: '/api/prescriptions?view=active' }),
    await time('list: to sign', { method: 'GET', url: '/api/prescriptions?view=to_sign' }),
    await time("list: one patient's", { method: 'GET', url: `/api/prescriptions?patientId=${subject!.id}` }),
  ];
  const baseline = reads[0]!.p50Ms;
  const plan = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off, timing on, summary on) ${query}`)).map((row) => row['QUERY PLAN']);
  // The recent list's two statements as the server runs them, in an admin's scope (no restricted reach).
  const seen = sql`not exists (select 1 from patients rp where rp.id = p.patient_id and rp.restricted_at is not null)`;
  const plans = {
    recentPage: await plan(sql`select p.id from prescriptions p where ${seen} and true order by p.created_at desc nulls last, p.id desc nulls last limit 26`),
    recentCount: await plan(sql`select count(*) from (select 1 from prescriptions p where ${seen} and true limit 1001) counted`),
  };
  console.log(
    JSON.stringify(
      {
        engine: database.engine,
        formulary: FORMULARY,
        prescriptions: PRESCRIPTIONS,
        seedSeconds,
        runs: RUNS,
        reads: reads.map((x) => ({ ...x, p50ToBaseline: r(x.p50Ms / baseline) })),
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
