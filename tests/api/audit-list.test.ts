import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAuditRows, type TAuditRow } from '#domain/audit';
import { PAGE_HEADERS } from '#domain/paging';
import type { TRole } from '#domain/roles';
import { queryRows } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { insertPatient, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
const as = {} as Record<TRole, SignedIn>;

beforeAll(async () => {
  t = await buildTestApp();
  for (const role of ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'] as const) as[role] = await signInAs(t, role);
});
afterAll(async () => {
  await t?.close();
});

const rowsOf = (body: string) => ZAuditRows.parse(JSON.parse(body));
async function list(query: string): Promise<TAuditRow[]> {
  const res = await as.admin.get(`/api/admin/audit?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return rowsOf(res.body);
}

/** A row written straight to the trail, then sealed (numbered and linked) like any other. */
async function insertAuditRow(fields: {
  actorId?: string;
  action?: string;
  at?: string;
  entityId?: string | null;
  userAgent?: string | null;
  ip?: string | null;
  patientId?: string | null;
}) {
  const [written] = await queryRows<{ id: string }>(
    t.db,
    sql`
    insert into audit_events (actor_id, action, entity_type, entity_id, patient_id, at, ip, user_agent)
    values (${fields.actorId ?? null}::uuid, ${fields.action ?? 'test.event'}, 'test', ${fields.entityId ?? null},
      ${fields.patientId ?? null}::uuid, ${fields.at ?? new Date().toISOString()}::timestamptz, ${fields.ip ?? null}, ${fields.userAgent ?? null})
    returning id`,
  );
  await sealCommitted(t.db, 20_000);
  const [row] = await queryRows<{ seq: string }>(t.db, sql`select seq::text as seq from audit_events where id = ${written!.id}`);
  return Number(row!.seq);
}

/** RFC 4180 as the export writes it: CRLF between records, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('who may read the audit trail', () => {
  const routes = ['/api/admin/audit', '/api/admin/audit/actions', '/api/admin/audit/export.csv', '/api/admin/audit/verify'];
  it.each(routes)('%s: admin 200; scheduler, nurse, scribe, supplier 403; anonymous 401', async (url) => {
    expect((await as.admin.get(url)).statusCode).toBe(200);
    for (const role of ['scheduler', 'nurse', 'scribe', 'supplier'] as const) {
      const res = await as[role].get(url);
      expect(res.statusCode, role).toBe(403);
      expect(res.body).not.toContain('audit_events');
    }
    expect((await anonymous(t).get(url)).statusCode).toBe(401);
  });

  it('records the refusals too, with who tried', async () => {
    await as.scribe.get('/api/admin/audit');
    const rows = await list(`actorId=${as.scribe.user.id}&action=audit.list&outcome=forbidden`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.outcome === 'forbidden' && r.actor?.role === 'scribe')).toBe(true);
  });
});

describe('GET /api/admin/audit filters', () => {
  it('by actor, patient (with the lists that showed them), action and outcome, exactly', async () => {
    const nurse = await signInAs(t, 'nurse');
    const [p1, p2] = [await insertPatient(t.db), await insertPatient(t.db)];
    expect((await nurse.get(`/api/patients/${p1.id}`)).statusCode).toBe(200);
    expect((await nurse.get(`/api/patients/${p2.id}`)).statusCode).toBe(200);
    expect((await nurse.get(`/api/patients?search=${encodeURIComponent(p1.lastName)}`)).statusCode).toBe(200);
    expect((await nurse.get(`/api/patients/${randomUUID()}`)).statusCode).toBe(404);

    const mine = (await list(`actorId=${nurse.user.id}`)).filter((r) => r.action !== 'auth.login');
    expect(mine.map((r) => r.action)).toEqual(['patient.read', 'patient.list', 'patient.read', 'patient.read']);
    expect(mine.map((r) => r.outcome)).toEqual(['not_found', 'allowed', 'allowed', 'allowed']);
    expect(
      mine.every((r) => r.actor?.id === nurse.user.id && r.actor.role === 'nurse' && r.actor.name === `${nurse.user.firstName} ${nurse.user.lastName}`),
    ).toBe(true);
    const seqs = mine.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(mine[1]).toMatchObject({ patientId: null, patientCount: 1, viaList: null });

    const aboutP1 = await list(`patientId=${p1.id}`);
    expect(aboutP1.map((r) => [r.action, r.viaList, r.patientCount])).toEqual([
      ['patient.list', true, 1],
      ['patient.read', false, null],
    ]);
    expect(aboutP1.every((r) => r.actor?.id === nurse.user.id)).toBe(true);
    const aboutP2 = await list(`patientId=${p2.id}`);
    expect(aboutP2.map((r) => [r.action, r.patientId])).toEqual([['patient.read', p2.id]]);

    expect((await list(`actorId=${nurse.user.id}&action=patient.read`)).map((r) => r.seq)).toEqual([mine[0]!.seq, mine[2]!.seq, mine[3]!.seq]);
    expect((await list(`actorId=${nurse.user.id}&action=patient.read&outcome=allowed`)).map((r) => r.seq)).toEqual([mine[2]!.seq, mine[3]!.seq]);
    expect(await list(`actorId=${nurse.user.id}&action=patient.create`)).toEqual([]);
    expect(await list(`patientId=${randomUUID()}`)).toEqual([]);

    const actions = (await as.admin.get('/api/admin/audit/actions')).json<string[]>();
    expect(actions).toEqual(expect.arrayContaining(['patient.read', 'patient.list', 'audit.list']));
    expect(actions).toEqual([...new Set(actions)].sort());
  });

  it('by date range: a date is a whole day in the clinic time zone (America/New_York here), both ends inclusive', async () => {
    const actor = randomUUID();
    // 2020-03-01 in New York runs from 05:00Z that day to 05:00Z the next.
    const before = await insertAuditRow({ actorId: actor, at: '2020-03-01T04:59:59.999Z' });
    const first = await insertAuditRow({ actorId: actor, at: '2020-03-01T05:00:00Z' });
    const last = await insertAuditRow({ actorId: actor, at: '2020-03-02T04:59:59.999Z' });
    const after = await insertAuditRow({ actorId: actor, at: '2020-03-02T05:00:00Z' });
    const seqs = async (q: string) => (await list(`actorId=${actor}&${q}`)).map((r) => r.seq);

    expect(await seqs('from=2020-03-01&to=2020-03-01')).toEqual([last, first]);
    expect(await seqs('from=2020-03-01')).toEqual([after, last, first]);
    expect(await seqs('to=2020-03-01')).toEqual([last, first, before]);
    expect(await seqs('from=2020-03-01T05:00:00Z&to=2020-03-02T05:00:00Z')).toEqual([after, last, first]);
    expect(await seqs('from=2020-03-01T00:00:00-05:00&to=2020-03-01T23:59:59.999-05:00')).toEqual([last, first]);
    const rows = await list(`actorId=${actor}&from=2020-03-01&to=2020-03-01`);
    expect(rows[0]!.at).toBe('2020-03-02T04:59:59.999Z');
    expect(rows[0]!.actor).toMatchObject({ id: actor, name: 'Unknown user' });
  });

  it('pages newest first by seq with no duplicates or gaps', async () => {
    const actor = randomUUID();
    const written: number[] = [];
    for (let i = 0; i < 7; i++) written.push(await insertAuditRow({ actorId: actor }));
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await as.admin.get(`/api/admin/audit?actorId=${actor}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      seen.push(...rowsOf(res.body).map((r) => r.seq));
      // Rows written meanwhile have higher numbers and never push into a later page.
      await insertAuditRow({ actorId: actor });
      cursor = res.headers[PAGE_HEADERS.nextCursor] as string | undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...written].reverse());
  });

  it.each([
    ['actorId=not-a-uuid', 'actorId'],
    ['patientId=123', 'patientId'],
    ['from=2020-03-02&to=2020-03-01', 'to'],
    ['from=2020-03-01T10:00:00Z&to=2020-03-01T09:00:00Z', 'to'],
    ['from=2020-02-30', 'from'],
    ['to=yesterday', 'to'],
    ['outcome=maybe', 'outcome'],
    ['limit=500', 'limit'],
    ['limit=0', 'limit'],
    ['cursor=bm90LWEta2V5', 'cursor'],
    ['search=anything', ''],
  ])('400 on %s', async (query, path) => {
    const before = (
      await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_events where action = 'audit.list' and outcome = 'allowed'`)
    )[0]!.n;
    const res = await as.admin.get(`/api/admin/audit?${query}`);
    expect(res.statusCode).toBe(400);
    if (path) expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain(path);
    const after = (
      await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_events where action = 'audit.list' and outcome = 'allowed'`)
    )[0]!.n;
    expect(after).toBe(before);
    expect((await as.admin.get(`/api/admin/audit/export.csv?${query.replace('limit', 'nolimit')}`)).statusCode).toBe(400);
  });
});

describe('GET /api/admin/audit/export.csv', () => {
  it('streams the same rows as the list, quoted per RFC 4180, with formula cells made inert', async () => {
    const actor = randomUUID();
    const patientId = randomUUID();
    await insertAuditRow({ actorId: actor, entityId: 'a,b "c"', userAgent: '=HYPERLINK("http://evil")', ip: '+1', patientId });
    await insertAuditRow({ actorId: actor, entityId: '-2+3', userAgent: '@SUM(A1)', ip: 'line\r\nbreak' });
    await insertAuditRow({ actorId: actor, entityId: '\tx', userAgent: 'Mozilla/5.0' });

    const res = await as.admin.get(`/api/admin/audit/export.csv?actorId=${actor}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{8}\.csv"$/);
    const [header, ...records] = parseCsv(res.body);
    expect(header).toEqual([
      'seq',
      'id',
      'at',
      'actor_id',
      'actor_name',
      'actor_role',
      'action',
      'outcome',
      'entity_type',
      'entity_id',
      'patient_id',
      'patient_ids',
      'patient_count',
      'via_list',
      'ip',
      'user_agent',
      'hash',
    ]);
    const listed = await list(`actorId=${actor}`);
    expect(records.map((r) => Number(r[0]))).toEqual(listed.map((r) => r.seq));
    const col = (name: string) => header!.indexOf(name);
    const [third, second, first] = records as [string[], string[], string[]];
    expect(first[col('entity_id')]).toBe('a,b "c"');
    expect(first[col('user_agent')]).toBe(`'=HYPERLINK("http://evil")`);
    expect(first[col('ip')]).toBe(`'+1`);
    expect(first[col('patient_id')]).toBe(patientId);
    expect(second[col('entity_id')]).toBe(`'-2+3`);
    expect(second[col('user_agent')]).toBe(`'@SUM(A1)`);
    expect(second[col('ip')]).toBe('line\r\nbreak');
    expect(third[col('entity_id')]).toBe(`'\tx`);
    expect(res.body).toContain('"a,b ""c"""');
    for (const record of records) {
      expect(record[col('hash')]).toMatch(/^[0-9a-f]{64}$/);
      expect(record[col('at')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    // The hash re-computes from the exported columns (the chain's own function, given the row's predecessor).
    const [check] = await queryRows<{ ok: boolean }>(
      t.db,
      sql`
      select a.hash = audit_link((select hash from audit_events where seq = a.seq - 1), a) as ok
      from audit_events a where a.seq = ${Number(first[0])}`,
    );
    expect(check!.ok).toBe(true);
  });

  it('pages through more rows than one batch', async () => {
    const actor = randomUUID();
    await t.db.execute(sql`
      insert into audit_events (actor_id, action, entity_type)
      select ${actor}::uuid, 'bulk.event', 'test' from generate_series(1, 1203)`);
    const res = await as.admin.get(`/api/admin/audit/export.csv?actorId=${actor}`);
    const records = parseCsv(res.body)
      .slice(1)
      .map((r) => Number(r[0]));
    expect(records).toHaveLength(1203);
    expect(new Set(records).size).toBe(1203);
    expect(records).toEqual([...records].sort((a, b) => b - a));
  });
});

describe('reading the trail is audited, never with search terms', () => {
  it('records list and export with the filtered patient, and no stored row holds a search term', async () => {
    const term = unique('Zq');
    const patient = await insertPatient(t.db, { lastName: term });
    expect((await as.nurse.get(`/api/patients?search=${term}`)).statusCode).toBe(200);
    expect((await as.admin.get(`/api/admin/audit?patientId=${patient.id}`)).statusCode).toBe(200);
    expect((await as.admin.get(`/api/admin/audit/export.csv?patientId=${patient.id}`)).statusCode).toBe(200);

    const reads = await list(`patientId=${patient.id}&actorId=${as.admin.user.id}`);
    // A read is recorded after it is answered: this one is not in its own answer.
    expect(reads.map((r) => [r.action, r.patientId, r.viaList])).toEqual([
      ['audit.export', patient.id, false],
      ['audit.list', patient.id, false],
    ]);

    const [hits] = await queryRows<{ n: number }>(
      t.db,
      sql`
      select count(*)::int as n from audit_events a where audit_row_text(a) ilike ${`%${term}%`}`,
    );
    expect(hits!.n).toBe(0);
  });
});
