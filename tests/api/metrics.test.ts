import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The Prometheus endpoint (issue 36): what an instance is doing, by route pattern and never by
// record, for this machine's scraper or the holder of METRICS_TOKEN only.

let t: TestApp;
let guarded: TestApp;
const TOKEN = 'a-scraper-token-of-some-length';

beforeAll(async () => {
  t = await buildTestApp();
  guarded = await buildTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await t?.close();
  await guarded?.close();
});

const scrape = (app: TestApp, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  app.app.inject({ method: 'GET', url: '/api/metrics', ...options });

describe('GET /api/metrics', () => {
  it('counts requests by route pattern and status, with the loop, the heap, live sockets and the seal lag; no record id in it', async () => {
    const admin = await signInAs(t, 'admin');
    const patient = await insertPatient(t.db);
    expect((await admin.get(`/api/patients/${patient.id}`)).statusCode).toBe(200);
    expect((await admin.get('/api/patients?limit=1')).statusCode).toBe(200);
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/patients\/:id",status="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/patients",status="200"\} 1/);
    expect(text).toMatch(/http_responses_total\{class="2xx"\} \d+/);
    for (const metric of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'live_sockets_open 0', 'audit_unsealed_oldest_seconds'])
      expect(text, metric).toContain(metric);
    expect(text).not.toContain(patient.id);
    // The database's statements are timed on both engines; the pool only PostgreSQL has.
    const statements = Number(/db_query_duration_seconds_count (\d+)/.exec(text)?.[1]);
    expect(statements).toBeGreaterThan(3);
    if (t.database.engine === 'postgres') expect(text).toMatch(/db_pool_connections\{state="idle"\} \d+/);
    else expect(text).not.toContain('db_pool_connections');
    // On the embedded engine the app backs itself up: none yet is an infinite age, so an alert fires at once.
    if (t.database.engine === 'pglite') expect(text).toContain('backup_last_success_age_seconds +Inf');
  });

  it('answers only this machine without a token: another address, or a request through a proxy, is refused', async () => {
    expect((await scrape(t, { remoteAddress: '10.0.0.7' })).statusCode).toBe(403);
    expect((await scrape(t, { headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(403);
    // A proxy that says whom it forwards for by X-Real-IP alone (nginx's way) is a proxy too (issue 47).
    expect((await scrape(t, { headers: { 'x-real-ip': '203.0.113.9' } })).statusCode).toBe(403);
    expect((await scrape(t, { remoteAddress: '::1' })).statusCode).toBe(200);
  });

  it('with METRICS_TOKEN, answers its bearer from anywhere and nobody else, this machine included', async () => {
    expect((await scrape(guarded)).statusCode).toBe(403);
    expect((await scrape(guarded, { headers: { authorization: 'Bearer wrong-token-of-the-same-len' } })).statusCode).toBe(403);
    const ok = await scrape(guarded, { remoteAddress: '10.0.0.7', headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' } });
    expect(ok.statusCode).toBe(200);
  });
});

/**
 * What `promtool check metrics` checks of names and types (Prometheus's own linter, issue 48):
 * every family has HELP and TYPE, a counter's name ends in `_total` and nothing else's does,
 * names and label names are valid, and each sample belongs to a declared family.
 */
function lintProblems(text: string): string[] {
  const problems: string[] = [];
  const help = new Set<string>();
  const types = new Map<string, string>();
  const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name!)) problems.push(`${name}: not a valid metric name`);
      if (kind === 'HELP') help.add(name!);
      else types.set(name!, rest ?? '');
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (!sample) {
      problems.push(`unreadable line: ${line.slice(0, 80)}`);
      continue;
    }
    const family = [...types.keys()].find((f) => sample[1] === f || (/_(bucket|sum|count)$/.test(sample[1]!.slice(f.length)) && sample[1]!.startsWith(f)));
    if (!family) problems.push(`${sample[1]}: a sample of no declared family`);
    for (const [, label] of (sample[2] ?? '').matchAll(/([^{,=]+)="/g))
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label!)) problems.push(`${sample[1]}: label ${label}`);
  }
  for (const [name, type] of types) {
    if (!help.has(name)) problems.push(`${name}: no HELP`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: a counter not ending in _total`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: a ${type} ending in _total`);
  }
  return problems;
}

describe('the metrics as Prometheus lints them', () => {
  it("pass the standard linter's rules (gauges named like counters were dropped)", async () => {
    const text = (await scrape(t)).body;
    expect(lintProblems(text)).toEqual([]);
    // The linter is not a test that cannot fail: it finds what promtool found before.
    expect(lintProblems('# HELP nodejs_active_handles_total x\n# TYPE nodejs_active_handles_total gauge\nnodejs_active_handles_total 3\n')).toEqual([
      'nodejs_active_handles_total: a gauge ending in _total',
    ]);
  });
});
