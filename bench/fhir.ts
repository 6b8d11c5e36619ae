/**
 * The FHIR R4 read API at clinic-network scale (issue 35): 1,000,000 patients (BENCH_PATIENTS)
 * named as bench/patients-search.ts names them, beside 1,000,000 appointments (BENCH_APPOINTMENTS),
 * 1,000,000 notes (BENCH_NOTES) and 250,000 lab orders (BENCH_LAB_ORDERS, two results each when
 * received) of other patients, so the planner sees a clinic's tables. Through the real API
 * (session cookie, validation, scope, audit rows), after a warm-up, BENCH_RUNS (60) times each:
 * `GET /fhir/R4/Patient?name=` for six terms, its second page by the Bundle's `next` link, and the
 * app's own `GET /api/patients?search=` for the same term and page size, interleaved so that each
 * FHIR figure is also a ratio to the baseline measured in the same run on this noisy machine; then
 * `Patient/{id}/$everything` of one patient with 200 appointments, 200 finalized notes (some
 * amended) and 50 lab orders with 100 results. On a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards; BENCH_FHIR_KEEP_DB=<name> keeps it and reuses it), else
 * on PGlite. Prints JSON figures; nothing here asserts a time. Targets: name search p95 under
 * 50 ms, $everything under 500 ms, both on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { openBenchDatabase } from './bench-database.ts';
import { insertBenchPatients } from './bench-patients.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 1_000_000);
const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 1_000_000);
const NOTES = Number(process.env.BENCH_NOTES ?? 1_000_000);
const LABS = Number(process.env.BENCH_LAB_ORDERS ?? 250_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
const BATCH = 250_000;
const NURSES = 20;
const SCRIBES = 5;
/** The FHIR default page size; the app's list is asked for the same, so both answer 20 rows. */
const PAGE = 20;
/** The one patient of $everything, found again by this on a kept database. */
const EVERYTHING_EMAIL = 'eleanor.whitfield@bench.clinic';
const EVERYTHING = { appointments: 200, notes: 200, amendedEvery: 20, labOrders: 50 };

/** A common last-name prefix, a full last name, a first name, "first last", a selective name, none. */
const TERMS = ['sm', 'smith', 'mary', 'mary smith', 'garcia-742', 'zzqx'];

const bench = await openBenchDatabase('fhir', { keep: process.env.BENCH_FHIR_KEEP_DB });
const { db, url } = bench;

const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;
const log = (message: string) => process.stderr.write(`[fhir bench] ${message}\n`);

/** The data set, on an empty database (or one a broken seed left): answers its admin. */
async function seed() {
  const started = Date.now();
  const took = () => `${r((Date.now() - started) / 1000)} s`;
  await db.execute(sql`truncate patients cascade`);
  await db.execute(sql`drop table if exists bench_people, bench_staff`);
  const [existing] = await queryRows<{ id: string; email: string }>(db, sql`select id, email from users where role = 'admin' limit 1`);
  const admin = existing ?? (await createUser(db, { role: 'admin' }));
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-nurse-' || i || '@bench.clinic', 'Nurse' || i, 'Bench', 'nurse'::user_role from generate_series(1, ${NURSES}) i
    union all select 'bench-scribe-' || i || '@bench.clinic', 'Scribe' || i, 'Bench', 'scribe'::user_role from generate_series(1, ${SCRIBES}) i
    on conflict do nothing`);
  await db.execute(sql`create unlogged table bench_staff as
    select role::text as role, row_number() over (partition by role order by email) as n, id from users where email like 'bench-%'`);
  await db.execute(sql`create unique index on bench_staff (role, n)`);

  for (let from = 1; from <= PATIENTS; from += BATCH) {
    await db.execute(insertBenchPatients(from, Math.min(PATIENTS, from + BATCH - 1)));
    log(`patients ${Math.min(PATIENTS, from + BATCH - 1)} in ${took()}`);
  }
  await db.execute(sql`create unlogged table bench_people as select row_number() over (order by id) as n, id from patients`);
  await db.execute(sql`create unique index on bench_people (n)`);

  // Other patients' records: appointments evenly over 4.5 years back and half a year ahead (a
  // patient's next one years later, so none overlap), notes, and lab orders with their results.
  // No room or staff assignment, which the exclusion constraints would check for nothing here.
  const spanSeconds = 5 * 365 * 86_400;
  for (let from = 0; from < APPOINTMENTS; from += BATCH) {
    const to = Math.min(APPOINTMENTS, from + BATCH) - 1;
    await db.execute(sql`
      insert into appointments (patient_id, provider_id, appointment_date, duration, appointment_type, status, reason,
        checked_in_at, completed_at, cancelled_at, created_at, updated_at)
      select p.id, nurse.id, t.at, 30, (array['consultation', 'follow_up', 'urgent_care', 'physical_exam', 'lab_review'])[1 + i % 5],
        s.status::appointment_status, 'Routine visit',
        case when s.status = 'completed' then t.at end, case when s.status = 'completed' then t.at + interval '30 minutes' end,
        case when s.status = 'cancelled' then t.at - interval '1 day' end, t.at - interval '14 days', t.at
      from generate_series(${from}::int, ${to}::int) i
      cross join lateral (select date_trunc('minute', now() - interval '1642 days') + make_interval(secs => i * ${spanSeconds / APPOINTMENTS}::float8) as at) t
      cross join lateral (select case when i % 100 < 8 then 'cancelled' when i % 100 < 15 then 'no_show'
        when t.at > now() then 'scheduled' else 'completed' end as status) s
      join bench_people p on p.n = 1 + i % ${PATIENTS}
      join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + i % ${NURSES}`);
    log(`appointments ${to + 1} in ${took()}`);
  }
  for (let from = 0; from < NOTES; from += BATCH) {
    const to = Math.min(NOTES, from + BATCH) - 1;
    await db.execute(sql`
      insert into patient_notes (patient_id, author_id, note_type, content, status, scribe_id, reviewed_at, finalized_at, created_at, updated_at)
      select p.id, nurse.id, 'Progress Note', 'Seen for follow-up. Vitals stable. Plan: continue current medications, return in 3 months.',
        (case when i % 10 = 0 then 'submitted_to_scribe' else 'finalized' end)::note_status, scribe.id,
        case when i % 10 <> 0 then t.at + interval '20 hours' end, case when i % 10 <> 0 then t.at + interval '40 hours' end, t.at, t.at
      from generate_series(${from}::int, ${to}::int) i
      cross join lateral (select now() - interval '1642 days' + make_interval(secs => i * ${(spanSeconds * 0.9) / NOTES}::float8) as at) t
      join bench_people p on p.n = 1 + (i * 7) % ${PATIENTS}
      join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + i % ${NURSES}
      join bench_staff scribe on scribe.role = 'scribe' and scribe.n = 1 + i % ${SCRIBES}`);
    log(`notes ${to + 1} in ${took()}`);
  }
  for (let from = 0; from < LABS; from += BATCH) {
    const to = Math.min(LABS, from + BATCH) - 1;
    await db.execute(sql`
      with made as (
        insert into lab_orders (patient_id, provider_id, order_name, status, priority, ordered_at, received_at, reviewed_at, reviewed_by_id,
          first_reviewed_at, expected_on, worst_flag, flag_rank, created_at, updated_at)
        select p.id, nurse.id, 'Basic metabolic panel', (case when i % 10 = 0 then 'ordered' else 'received' end)::lab_order_status,
          (case when i % 20 = 0 then 'stat' when i % 5 = 0 then 'urgent' else 'routine' end)::lab_priority, t.at,
          case when i % 10 <> 0 then t.at + interval '1 day' end, case when i % 10 <> 0 then t.at + interval '2 days' end,
          case when i % 10 <> 0 then nurse.id end, case when i % 10 <> 0 then t.at + interval '2 days' end, (t.at + interval '1 day')::date,
          case when i % 10 <> 0 then 'N' end, 0, t.at, t.at
        from generate_series(${from}::int, ${to}::int) i
        cross join lateral (select now() - interval '1642 days' + make_interval(secs => i * ${(spanSeconds * 0.9) / LABS}::float8) as at) t
        join bench_people p on p.n = 1 + (i * 13) % ${PATIENTS}
        join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1 + i % ${NURSES}
        returning id, status, provider_id, received_at
      )
      insert into lab_results (order_id, position, name, value_numeric, unit, ref_low, ref_high, flag, flag_source, entered_by_id, entered_at)
      select m.id, k.position, k.name, k.value, 'mmol/L', k.low, k.high, 'N', 'computed', m.provider_id, m.received_at
      from made m cross join (values (0, 'Potassium', 4.2, 3.5, 5.1), (1, 'Sodium', 140, 135, 145)) as k(position, name, value, low, high)
      where m.status = 'received'`);
    log(`lab orders ${to + 1} in ${took()}`);
  }

  // The patient of $everything, written last: on a kept database, her presence means the seed finished.
  const [patient] = await queryRows<{ id: string }>(
    db,
    sql`insert into patients (first_name, last_name, email, phone, date_of_birth, sex, address, insurance_provider, insurance_number, allergies,
        emergency_contact, emergency_phone)
      values ('Eleanor', 'Whitfield', ${EVERYTHING_EMAIL}, '555-0142', '1956-03-14', 'female', '12 Harbour Road, Springfield', 'Aetna', 'AET-0042-7781',
        'Penicillin (hives); latex', 'Martin Whitfield', '555-0143')
      returning id`,
  );
  const pid = patient!.id;
  // 200 appointments a day apart, 150 past and 50 ahead, with her nurse, scribe and room: one in
  // ten cancelled and one in ten a no-show, the other past ones completed (so Encounters).
  await db.execute(sql`
    insert into appointments (patient_id, provider_id, appointment_date, duration, appointment_type, status, reason, notes, room_number,
      assigned_nurse_id, assigned_scribe_id, checked_in_at, completed_at, cancelled_at, status_reason, created_at, updated_at)
    select ${pid}::uuid, nurse.id, t.at, 30, (array['follow_up', 'consultation', 'lab_review', 'physical_exam'])[1 + i % 4], s.status::appointment_status,
      'Hypertension follow-up', 'Bring home blood pressure log.', '3', nurse.id, scribe.id,
      case when s.status = 'completed' then t.at + interval '5 minutes' end, case when s.status = 'completed' then t.at + interval '35 minutes' end,
      case when s.status = 'cancelled' then t.at - interval '1 day' end,
      case when s.status = 'cancelled' then 'Patient called to reschedule' when s.status = 'no_show' then 'Did not attend' end,
      t.at - interval '14 days', t.at
    from generate_series(0, ${EVERYTHING.appointments - 1}) i
    cross join lateral (select date_trunc('day', now()) - interval '150 days' + make_interval(days => i, hours => 14) as at) t
    cross join lateral (select case when t.at > now() then 'scheduled' when i % 10 = 3 then 'cancelled' when i % 10 = 7 then 'no_show'
      else 'completed' end as status) s
    join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1
    join bench_staff scribe on scribe.role = 'scribe' and scribe.n = 1`);
  // 200 finalized notes of about 800 characters, with the revisions the workflow writes.
  await db.execute(sql`
    with made as (
      insert into patient_notes (patient_id, author_id, note_type, content, status, scribe_id, reviewed_at, finalized_at, created_at, updated_at)
      select ${pid}::uuid, nurse.id, (array['Progress Note', 'SOAP Note', 'Lab Review'])[1 + j % 3],
        'Subjective: patient reports ' || (array['mild headache', 'improved sleep', 'intermittent chest tightness', 'no new complaints'])[1 + j % 4]
          || ' since the last visit. Objective: BP ' || (118 + j % 30) || '/' || (72 + j % 15) || ' mmHg, HR ' || (60 + j % 25)
          || ', temperature 36.8 C, weight stable. Assessment: essential hypertension, stable on the current regimen. '
          || 'Plan: continue lisinopril 10 mg daily, recheck basic metabolic panel in 3 months, return in 4 weeks. '
          || repeat('Counselled on diet, salt intake and exercise. ', 10),
        'finalized', scribe.id, t.at + interval '20 hours', t.at + interval '40 hours', t.at, t.at + interval '40 hours'
      from generate_series(0, ${EVERYTHING.notes - 1}) j
      cross join lateral (select date_trunc('day', now()) - interval '300 days' + make_interval(days => j, hours => 16) as at) t
      join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1
      join bench_staff scribe on scribe.role = 'scribe' and scribe.n = 1
      returning id, author_id, scribe_id, created_at
    )
    insert into note_revisions (note_id, at, actor_id, action, from_status, to_status)
    select m.id, m.created_at, m.author_id, 'created', null::note_status, 'draft'::note_status from made m
    union all select m.id, m.created_at + interval '3 hours', m.author_id, 'moved', 'draft', 'submitted_to_scribe' from made m
    union all select m.id, m.created_at + interval '20 hours', m.scribe_id, 'moved', 'submitted_to_scribe', 'reviewed_by_scribe' from made m
    union all select m.id, m.created_at + interval '40 hours', ${admin.id}::uuid, 'moved', 'reviewed_by_scribe', 'finalized' from made m`);
  // One in twenty amended by the admin two days after finalizing: the text before kept in its revision.
  await db.execute(sql`
    with picked as (
      select id, content, finalized_at from (select id, content, finalized_at, row_number() over (order by created_at) as k
        from patient_notes where patient_id = ${pid}::uuid) s where k % ${EVERYTHING.amendedEvery} = 1
    ), revised as (
      insert into note_revisions (note_id, at, actor_id, action, from_status, to_status, content_before, content_after, reason)
      select p.id, p.finalized_at + interval '2 days', ${admin.id}::uuid, 'amended', 'finalized', 'finalized', p.content,
        p.content || ' Addendum: the dose is lisinopril 20 mg daily, not 10 mg.', 'Dose recorded wrongly'
      from picked p
    )
    update patient_notes n set content = p.content || ' Addendum: the dose is lisinopril 20 mg daily, not 10 mg.',
      amended_at = p.finalized_at + interval '2 days', updated_at = p.finalized_at + interval '2 days'
    from picked p where n.id = p.id`);
  // 50 lab orders, received and reviewed, with two results each (one in five high).
  await db.execute(sql`
    with made as (
      insert into lab_orders (patient_id, provider_id, order_name, description, status, priority, ordered_at, received_at, reviewed_at,
        reviewed_by_id, first_reviewed_at, expected_on, worst_flag, flag_rank, created_at, updated_at)
      select ${pid}::uuid, nurse.id, (array['Basic metabolic panel', 'Lipid panel'])[1 + i % 2], 'Fasting', 'received', 'routine', t.at,
        t.at + interval '1 day', t.at + interval '2 days', nurse.id, t.at + interval '2 days', (t.at + interval '1 day')::date,
        case when i % 5 = 0 then 'H' else 'N' end, case when i % 5 = 0 then 1 else 0 end, t.at, t.at + interval '2 days'
      from generate_series(0, ${EVERYTHING.labOrders - 1}) i
      cross join lateral (select date_trunc('day', now()) - interval '300 days' + make_interval(days => 6 * i, hours => 15) as at) t
      join bench_staff nurse on nurse.role = 'nurse' and nurse.n = 1
      returning id, order_name, provider_id, received_at, worst_flag
    )
    insert into lab_results (order_id, position, name, value_numeric, unit, ref_low, ref_high, flag, flag_source, entered_by_id, entered_at)
    select m.id, k.position, k.name, case when m.worst_flag = 'H' and k.position = 0 then k.high * 1.2 else k.value end, k.unit, k.low, k.high,
      case when m.worst_flag = 'H' and k.position = 0 then 'H' else 'N' end, 'computed', m.provider_id, m.received_at
    from made m join (values ('Basic metabolic panel', 0, 'Potassium', 4.2, 3.5, 5.1, 'mmol/L'), ('Basic metabolic panel', 1, 'Sodium', 140, 135, 145, 'mmol/L'),
      ('Lipid panel', 0, 'LDL cholesterol', 2.6, 0, 3.4, 'mmol/L'), ('Lipid panel', 1, 'HDL cholesterol', 1.4, 1.0, 2.5, 'mmol/L'))
      as k(order_name, position, name, value, low, high, unit) on k.order_name = m.order_name`);
  await db.execute(sql`drop table bench_people, bench_staff`);
  log(`seeded in ${took()}`);
  return admin;
}

/** BENCH_RUNS timings after the warm-up: p50, p95, max. */
function figures(times: number[]) {
  const sorted = times.slice(WARMUP).sort((a, b) => a - b);
  return { p50Ms: r(quantile(sorted, 0.5)), p95Ms: r(quantile(sorted, 0.95)), maxMs: r(sorted.at(-1)!) };
}

try {
  const started = Date.now();
  const [ready] = await queryRows<{ id: string }>(db, sql`select id from patients where email = ${EVERYTHING_EMAIL} limit 1`);
  const seeded = ready ? (await queryRows<{ id: string; email: string }>(db, sql`select id, email from users where role = 'admin' limit 1`))[0] : undefined;
  const admin = seeded ?? (await seed());
  const seedSeconds = r((Date.now() - started) / 1000);
  // As autovacuum leaves a clinic's tables after the load: statistics, visibility map.
  for (const table of ['patients', 'patient_name_keys', 'appointments', 'patient_notes', 'note_revisions', 'lab_orders', 'lab_results', 'users'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  log(seeded ? 'seeded before' : `seeded and vacuumed in ${r((Date.now() - started) / 1000)} s`);
  const [everyone] = await queryRows<{ id: string }>(db, sql`select id from patients where email = ${EVERYTHING_EMAIL}`);
  const patientId = everyone!.id;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent' });
  const app = await buildApp(config, db);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;

  async function get(path: string) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: path, headers: { cookie } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 500)}`);
    return { ms, res };
  }
  type TBundle = { entry?: { resource: { resourceType: string } }[]; link?: { relation: string; url: string }[] };
  const nextOf = (bundle: TBundle) => {
    const next = bundle.link?.find((l) => l.relation === 'next')?.url;
    return next ? new URL(next).pathname + new URL(next).search : null;
  };

  // Each round: per term, the FHIR search's first page, its second page by `next`, the app's own
  // list of the same term and size, and the cheapest signed-in read; the rounds interleave them,
  // so a busy second on the machine falls on all alike.
  const byTerm = TERMS.map((term) => ({
    term,
    fhir: [] as number[],
    page2: [] as number[],
    api: [] as number[],
    entries: 0,
    page2Entries: 0,
    apiRows: 0,
    apiTotal: '',
  }));
  const floor: number[] = [];
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const t of byTerm) {
      const first = await get(`/fhir/R4/Patient?name=${encodeURIComponent(t.term)}`);
      t.fhir.push(first.ms);
      const bundle = first.res.json() as TBundle;
      t.entries = bundle.entry?.length ?? 0;
      const next = nextOf(bundle);
      if (next) {
        const second = await get(next);
        t.page2.push(second.ms);
        t.page2Entries = (second.res.json() as TBundle).entry?.length ?? 0;
      }
      const own = await get(`/api/patients?search=${encodeURIComponent(t.term)}&limit=${PAGE}`);
      t.api.push(own.ms);
      t.apiRows = (own.res.json() as unknown[]).length;
      t.apiTotal = `${own.res.headers['x-total-count']}${own.res.headers['x-total-capped'] ? '+' : ''}`;
    }
    floor.push((await get('/api/auth/user')).ms);
  }
  const searches = byTerm.map((t) => {
    const fhir = figures(t.fhir);
    const api = figures(t.api);
    return {
      term: t.term,
      fhir: { entries: t.entries, ...fhir },
      page2: t.page2.length ? { entries: t.page2Entries, ...figures(t.page2) } : null,
      api: { rows: t.apiRows, total: t.apiTotal, ...api },
      p50ToApi: ratio(fhir.p50Ms, api.p50Ms),
      p95ToApi: ratio(fhir.p95Ms, api.p95Ms),
    };
  });
  for (const s of searches) log(`name=${s.term}: p95 ${s.fhir.p95Ms} ms (api ${s.api.p95Ms} ms)`);

  // $everything, with the cheapest signed-in read beside it again.
  const everythingTimes: number[] = [];
  const everythingFloor: number[] = [];
  let bundle: TBundle = {};
  let bytes = 0;
  for (let round = 0; round < WARMUP + RUNS; round++) {
    const { ms, res } = await get(`/fhir/R4/Patient/${patientId}/$everything`);
    everythingTimes.push(ms);
    bytes = res.rawPayload.length;
    if (round === 0) bundle = res.json() as TBundle;
    everythingFloor.push((await get('/api/auth/user')).ms);
  }
  const byType: Record<string, number> = {};
  for (const e of bundle.entry ?? []) byType[e.resource.resourceType] = (byType[e.resource.resourceType] ?? 0) + 1;
  const everything = { entries: bundle.entry?.length ?? 0, bytes, byType, ...figures(everythingTimes), authUser: figures(everythingFloor) };
  log(`$everything: p95 ${everything.p95Ms} ms, ${everything.entries} entries, ${bytes} bytes`);

  const [counts] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from patients)::int as patients, (select count(*) from appointments)::int as appointments,
      (select count(*) from patient_notes)::int as notes, (select count(*) from note_revisions)::int as "noteRevisions",
      (select count(*) from lab_orders)::int as "labOrders", (select count(*) from lab_results)::int as "labResults"`,
  );
  console.log(
    JSON.stringify(
      {
        engine: url ? 'postgres' : 'pglite',
        database: process.env.BENCH_FHIR_KEEP_DB ?? null,
        seeded: seeded ? 'before' : 'this run',
        seedSeconds,
        data: counts,
        runs: RUNS,
        pageSize: PAGE,
        authUser: figures(floor),
        searches,
        everything,
        targets: {
          nameSearchP95Under50Ms: searches.every((s) => s.fhir.p95Ms < 50 && (s.page2 === null || s.page2.p95Ms < 50)),
          everythingUnder500Ms: everything.maxMs < 500,
        },
      },
      null,
      2,
    ),
  );
  await app.close();
} finally {
  await bench.close();
}
