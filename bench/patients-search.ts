/**
 * Patient search at scale: BENCH_PATIENTS (100,000) patients, searched through the real API
 * (session check, validation, query, audit rows), on PGlite or on the PostgreSQL server in
 * BENCH_DATABASE_URL. Beside each term, in the same run, the plain plan (an exact count and every
 * match sorted by name, as ILIKE on the three fields, and on the full name either way round for
 * a term of several words) as the baseline. Prints JSON figures; nothing here asserts a time.
 * BENCH_SEEDED=1 reuses a database a previous run seeded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, queryRows } from '../server/db/database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { insertBenchPatients } from './bench-patients.ts';

const COUNT = Number(process.env.BENCH_PATIENTS ?? 100_000);
const url = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-'));

const database = await openDatabase(url ? { url } : { pgliteDir: path.join(dir, 'pg') });
const db = database.db;
const started = Date.now();
if (process.env.BENCH_SEEDED !== '1') {
  await db.execute(sql`truncate patients cascade`);
  for (let from = 1; from <= COUNT; from += 50_000) await db.execute(insertBenchPatients(from, Math.min(COUNT, from + 49_999)));
  // A loaded table as autovacuum leaves it: statistics, visibility map, merged GIN entries.
  await db.execute(sql`vacuum analyze patients`);
  await db.execute(sql`vacuum analyze patient_name_keys`);
}
const seedMs = Date.now() - started;

const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent' }) };
const app = await buildApp(config, db);
const nurse = await createUser(db, { role: 'nurse' });
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: nurse.email, password: TEST_PASSWORD } });
const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;

const r1 = (x: number) => Math.round(x * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function timeRequest(url: string) {
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url, headers: { cookie } });
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return { ms, res };
}

/** The plain plan this search replaced, timed in SQL: exact count, then all matches sorted. */
async function timeBaseline(term: string, runs: number) {
  const like = (t: string) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const p = like(term);
  const words = term.replace(/,?\s+/g, ' ');
  const fullName = words.includes(' ')
    ? sql`or first_name || ' ' || last_name ilike ${like(words)} or last_name || ' ' || first_name ilike ${like(words)}`
    : sql``;
  const match = term ? sql`and (first_name ilike ${p} or last_name ilike ${p} or email ilike ${p} ${fullName})` : sql``;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await queryRows(db, sql`select count(*) from patients where is_active ${match}`);
    await queryRows(db, sql`select id from patients where is_active ${match} order by lower(last_name) || '', lower(first_name), id limit 51`);
    times.push(performance.now() - t0);
  }
  return r1(times.sort((a, b) => a - b)[Math.floor(runs / 2)]!);
}

async function timeSearch(term: string, runs = 40) {
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < runs; i++) {
    const { ms, res } = await timeRequest(`/api/patients?search=${encodeURIComponent(term)}`);
    times.push(ms);
    total = `${res.headers['x-total-count']}${res.headers['x-total-capped'] ? '+' : ''}`;
  }
  times.sort((a, b) => a - b);
  const medianMs = r1(pct(times, 0.5));
  const baselineMs = await timeBaseline(term, 3);
  return { term, total, medianMs, p95Ms: r1(pct(times, 0.95)), maxMs: r1(times.at(-1)!), baselineMedianMs: baselineMs, speedup: r1(baselineMs / medianMs) };
}

/** Pages 2-10 by cursor, three times over: the slowest and the p95 of the 27 reads. */
async function timeLaterPages(term: string) {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const search = encodeURIComponent(term);
    let cursor = String((await timeRequest(`/api/patients?search=${search}&limit=50`)).res.headers['x-next-cursor'] ?? '');
    for (let page = 2; page <= 10 && cursor; page++) {
      const { ms, res } = await timeRequest(`/api/patients?search=${search}&limit=50&cursor=${cursor}`);
      times.push(ms);
      cursor = String(res.headers['x-next-cursor'] ?? '');
    }
  }
  times.sort((a, b) => a - b);
  return { term, pages: times.length / 3 + 1, p95Ms: r1(pct(times, 0.95)), maxMs: r1(times.at(-1)!) };
}

const TERMS = ['', 'a', 'jo', 'sm', 'son', 'smith', 'mith', 'mary', 'ramirez-42', 'priya.nguyen', 'example', '4242', 'zzqx'];
// A full name, either way round: each side longer or shorter, one letter, a comma, none.
const SEVERAL_WORDS = ['mary smith', 'smith mary', 'Smith, Mary', 'wei nguyen', 'john smith-42', 'mary s', 'm smith', 'a s', 'liam chen', 'zzqx smith'];
const searches = [];
for (const term of TERMS) searches.push(await timeSearch(term));
const severalWords = [];
for (const term of SEVERAL_WORDS) severalWords.push(await timeSearch(term));
const laterPages = [];
for (const term of ['son', 'smith', 'mary', 'a', 'example', 'mary s', 'a s']) laterPages.push(await timeLaterPages(term));

// Ten staff typing common terms at once: each connection goes through the terms in turn. The
// load comes from a worker thread, so the app's event loop is not also the load generator's.
const COMMON = ['smith', 'son', 'john', 'mary', 'garcia', 'lee', 'ander', 'will', 'mart', 'jo', 'a'];
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const loadOf = async (paths: string[]) => {
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${address.port}`,
      headers: { cookie },
      connections: 10,
      duration,
      workers: 1,
      requests: paths.map((path) => ({ method: 'GET' as const, path })),
    });
  // A 2 s warm-up first, as a running server is: its pools have their connections open.
  await run(2);
  return run(8);
};
// The same-run baseline: the same load on the cheapest signed-in read (session check, one small
// answer), which shows what this machine's two cores give any request under ten connections.
const baseline = await loadOf(['/api/auth/user']);
const load = await loadOf(COMMON.map((term) => `/api/patients?search=${term}&limit=50`));
const loadFigures = (r: autocannon.Result) => ({
  requests: r.requests.total,
  requestsPerSecond: r.requests.average,
  p50Ms: r.latency.p50,
  p99Ms: r.latency.p99,
  maxMs: r.latency.max,
  errors: r.errors,
  timeouts: r.timeouts,
  non2xx: r.non2xx,
});

console.log(
  JSON.stringify(
    {
      engine: database.engine,
      patients: COUNT,
      seedSeconds: r1(seedMs / 1000),
      searches,
      severalWords,
      laterPages,
      load: {
        connections: 10,
        seconds: 8,
        terms: COMMON,
        ...loadFigures(load),
        baseline: { path: '/api/auth/user', ...loadFigures(baseline) },
        p99ToBaseline: r1(load.latency.p99 / baseline.latency.p99),
      },
    },
    null,
    2,
  ),
);
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
