/**
 * Patient search at clinic scale: 100,000 patients (BENCH_PATIENTS), searched through the real
 * API (session check, validation, query, audit rows), on PGlite or on the PostgreSQL server in
 * BENCH_DATABASE_URL. Prints JSON figures; nothing here asserts a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';

const COUNT = Number(process.env.BENCH_PATIENTS ?? 100_000);
const url = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-'));

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Wei', 'Aisha', 'Olga', 'Hiroshi', 'Fatima', 'Luca', 'Priya', 'Mateo', 'Chloe', 'Omar'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores'];

const database = await openDatabase(url ? { url } : { pgliteDir: path.join(dir, 'pg') });
const db = database.db;
const started = Date.now();
await db.execute(sql`truncate patients cascade`);
const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
for (let from = 1; from <= COUNT; from += 50_000) {
  const to = Math.min(COUNT, from + 49_999);
  await db.execute(sql`
    insert into patients (first_name, last_name, email, phone, date_of_birth, insurance_provider)
    select f, l || case when i % 3 = 0 then '' else '-' || (i % 997)::text end,
           lower(f) || '.' || lower(l) || i::text || '@example.com',
           '555-' || lpad((i % 10000)::text, 4, '0'), date '1940-01-01' + (i % 29000), 'Aetna'
    from (select i, (${arr(FIRST)})[1 + i % ${FIRST.length}] as f, (${arr(LAST)})[1 + (i / 7) % ${LAST.length}] as l
          from generate_series(${from}::int, ${to}::int) as i) s`);
}
await db.execute(sql`analyze patients`);
const seedMs = Date.now() - started;

const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent' }) };
const app = await buildApp(config, db);
const nurse = await createUser(db, { role: 'nurse' });
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: nurse.email, password: TEST_PASSWORD } });
const cookie = `sid=${login.cookies.find((c) => c.name === 'sid')!.value}`;

async function timeSearch(term: string, runs = 15) {
  const times: number[] = [];
  let matches = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/patients?search=${encodeURIComponent(term)}`, headers: { cookie } });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${term}: ${res.statusCode} ${res.body}`);
    matches = Number(res.headers['x-total-count']);
  }
  times.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { term, matches, medianMs: r(times[Math.floor(runs / 2)]!), p95Ms: r(times[Math.floor(runs * 0.95)]!), maxMs: r(times.at(-1)!) };
}

const searches = [];
for (const term of ['', 'a', 'jo', 'son', 'smith', 'ramirez-42', 'priya.nguyen', 'zzqx']) searches.push(await timeSearch(term));

// Next pages walk the order index from the cursor, so page 10 costs about what page 1 does.
let cursor = '';
const pageTimes: number[] = [];
for (let p = 0; p < 10; p++) {
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url: `/api/patients?search=son&limit=50${cursor ? `&cursor=${cursor}` : ''}`, headers: { cookie } });
  pageTimes.push(Math.round((performance.now() - t0) * 10) / 10);
  cursor = String(res.headers['x-next-cursor'] ?? '');
}

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const load = await autocannon({
  url: `http://127.0.0.1:${address.port}/api/patients?search=smith&limit=50`,
  headers: { cookie }, connections: 10, duration: 8,
});

console.log(JSON.stringify({
  engine: database.engine, patients: COUNT, seedSeconds: Math.round(seedMs / 100) / 10, searches, pageTimesMs: pageTimes,
  load: { url: '/api/patients?search=smith&limit=50', connections: 10, requestsPerSecond: load.requests.average, p50Ms: load.latency.p50, p99Ms: load.latency.p99, errors: load.errors, non2xx: load.non2xx },
}, null, 2));
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
