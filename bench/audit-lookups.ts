/**
 * A record's latest change read from the audit trail, as FHIR's Provenance answers
 * `_revinclude=Provenance:target` (server/modules/fhir/fhir.queries.ts lastAuditedChanges), on a
 * trail of a clinic's years: BENCH_AUDIT_ROWS (2,000,000 on PostgreSQL, 500,000 on PGlite) rows,
 * most of them reads of 10,000 patients' records, some changes, and staff accounts' changes. Two lookups, each BENCH_RUNS (30)
 * times after a warm-up:
 * - a page of 20 Practitioners (staff rows carry no patient, so nothing narrows the trail but
 *   the record itself);
 * - 200 notes of one patient whose records were read 20,000 times.
 * Each is timed with the trail's record index (audit_events_entity_idx) and, in the same run,
 * with it dropped (3 runs: each then reads the trail once per record), so the figure is a ratio
 * on this noisy machine; the plans' lines that read the trail are printed too, as EXPLAIN
 * ANALYZE gives them. On a fresh database on the PostgreSQL server in BENCH_DATABASE_URL (dropped
 * afterwards), else PGlite. Nothing here asserts a time.
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/audit-lookups.ts
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../server/db/database.ts';
import { lastAuditedChanges, type TAuditedRecord } from '../server/modules/fhir/fhir.queries.ts';
import { openBenchDatabase } from './bench-database.ts';
import { quantile, round1 as r } from './stats.ts';

// A quarter of that on PGlite, where the lookups without the index would take minutes each.
const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? (process.env.BENCH_DATABASE_URL ? 2_000_000 : 500_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 1;
const RUNS_WITHOUT = 3;
const PATIENTS = 10_000;
const STAFF = 40;
const BUSY_READS = 20_000;
const BUSY_NOTES = 200;
const INDEX = 'audit_events_entity_idx';

const log = (message: string) => process.stderr.write(`[audit-lookups bench] ${message}\n`);
const bench = await openBenchDatabase('audit-lookups');
const { db } = bench;

/** As server/modules/fhir/fhir-provenance.ts describes staff accounts and notes. */
const STAFF_RECORD: TAuditedRecord = {
  table: sql`users r`,
  entityType: 'user',
  actions: ['user.invite', 'user.create_admin', 'user.invite_accepted', 'user.role_change', 'user.deactivate', 'user.reactivate'],
  recorder: sql`null::uuid`,
  changedAt: sql`r.updated_at`,
};
const NOTE_RECORD: TAuditedRecord = {
  table: sql`patient_notes r`,
  entityType: 'note',
  actions: ['note.create', 'note.update', 'note.amend', 'note.finalized'],
  recorder: sql`r.author_id`,
  changedAt: sql`r.updated_at`,
};

async function seed() {
  const started = Date.now();
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-staff-' || i || '@bench.clinic', 'Staff' || i, 'Bench', 'nurse'::user_role from generate_series(1, ${STAFF}) i`);
  await db.execute(sql`insert into patients (first_name, last_name, date_of_birth)
    select 'Pat' || i, 'Bench', date '1960-01-01' + (i % 20000) from generate_series(1, ${PATIENTS}) i`);
  const [busy] = await queryRows<{ id: string }>(db, sql`select id from patients order by id limit 1`);
  const [author] = await queryRows<{ id: string }>(db, sql`select id from users order by id limit 1`);
  await db.execute(sql`insert into patient_notes (patient_id, author_id, note_type, content, status)
    select ${busy!.id}, ${author!.id}, 'Progress Note', 'Bench note ' || i, 'draft' from generate_series(1, ${BUSY_NOTES}) i`);
  // The trail: reads of everyone's records (a patient's id on each), changes of notes, and the
  // staff accounts' own changes; then the busy patient's reads and her notes' changes.
  await db.execute(sql`create unlogged table bench_p as select row_number() over (order by id) as n, id from patients`);
  await db.execute(sql`create unique index on bench_p (n)`);
  const BATCH = 500_000;
  for (let from = 0; from < ROWS; from += BATCH) {
    const count = Math.min(BATCH, ROWS - from);
    await db.execute(sql`insert into audit_events (actor_id, action, entity_type, entity_id, patient_id, at)
      select ${author!.id}::uuid,
        case when g % 10 = 0 then 'note.update' else 'patient.view' end,
        case when g % 10 = 0 then 'note' else 'patient' end,
        case when g % 10 = 0 then gen_random_uuid()::text else p.id::text end,
        p.id, now() - (g || ' seconds')::interval
      from generate_series(${from + 1}::int, ${from + count}::int) g join bench_p p on p.n = 1 + g % ${PATIENTS}::int`);
    log(`trail ${from + count} rows in ${r((Date.now() - started) / 1000)} s`);
  }
  await db.execute(sql`insert into audit_events (actor_id, action, entity_type, entity_id, patient_id, at)
    select ${author!.id}::uuid, 'patient.view', 'patient', ${busy!.id}, ${busy!.id}::uuid, now() - (g || ' seconds')::interval
    from generate_series(1, ${BUSY_READS}) g`);
  await db.execute(sql`insert into audit_events (actor_id, action, entity_type, entity_id, patient_id)
    select ${author!.id}::uuid, 'note.create', 'note', n.id::text, n.patient_id from patient_notes n`);
  await db.execute(sql`insert into audit_events (actor_id, action, entity_type, entity_id)
    select ${author!.id}::uuid, 'user.invite', 'user', u.id::text from users u`);
  // The sealer is not running: the rows stay unsealed, which the lookups do not read.
  await db.execute(sql`analyze`);
  log(`seeded in ${r((Date.now() - started) / 1000)} s`);
  const staff = await queryRows<{ id: string }>(db, sql`select id::text from users order by email limit 20`);
  const notes = await queryRows<{ id: string }>(db, sql`select id::text from patient_notes`);
  return { staff: staff.map((u) => u.id), notes: notes.map((n) => n.id) };
}

async function time(lookup: () => Promise<unknown>, runs = RUNS) {
  for (let i = 0; i < WARMUP; i += 1) await lookup();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await lookup();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: r(quantile(times, 0.5)), p95: r(quantile(times, 0.95)) };
}

/**
 * The lookup's own plan, with what it did (EXPLAIN ANALYZE): its query is caught on its way to
 * the database and run again explained. Printed are the lines that read the trail.
 */
async function plan(lookup: (q: typeof db) => Promise<unknown>) {
  let caught: SQL | undefined;
  const catcher = new Proxy(db, {
    get: (target, key, receiver) =>
      key === 'execute'
        ? (query: SQL) => {
            caught = query;
            return target.execute(query);
          }
        : (Reflect.get(target, key, receiver) as unknown),
  });
  await lookup(catcher);
  if (!caught) throw new Error('The lookup ran no query');
  const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off) ${caught}`);
  return rows.map((row) => row['QUERY PLAN'].trim()).filter((line) => /audit_events|Execution Time/.test(line));
}

try {
  const ids = await seed();
  const lookups = {
    practitionerPage: (q = db) => lastAuditedChanges(q, STAFF_RECORD, ids.staff),
    busyPatientNotes: (q = db) => lastAuditedChanges(q, NOTE_RECORD, ids.notes),
  };
  const results: Record<string, Record<string, unknown>> = {};
  // The index as the migrations made it, to make it again after timing without it.
  const [index] = await queryRows<{ indexdef: string }>(db, sql`select indexdef from pg_indexes where indexname = ${INDEX}`);
  if (!index) throw new Error(`No ${INDEX}: the migrations make it`);
  for (const [name, lookup] of Object.entries(lookups)) {
    const staffPage = name === 'practitionerPage';
    const answer = await lookup();
    if (answer.length !== (staffPage ? ids.staff : ids.notes).length) throw new Error(`${name}: ${answer.length} rows`);
    const withIndex = await time(() => lookup());
    const indexedPlan = await plan(lookup);
    await db.execute(sql.raw(`drop index ${INDEX}`));
    // Without the index a lookup reads the trail once per record (seconds each): a few runs say it.
    const without = await time(() => lookup(), RUNS_WITHOUT);
    const plainPlan = await plan(lookup);
    await db.execute(sql.raw(index.indexdef));
    results[name] = {
      withoutIndexMs: without,
      withIndexMs: withIndex,
      ratio: r(without.p50 / withIndex.p50),
      plans: { without: plainPlan, with: indexedPlan },
    };
    log(`${name}: ${JSON.stringify(results[name])}`);
  }
  console.log(JSON.stringify({ benchmark: 'audit-lookups', engine: bench.engine, rows: ROWS, runs: RUNS, results }, null, 2));
} finally {
  await bench.close();
}
