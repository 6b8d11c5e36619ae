import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_PAGE } from '#domain/patients';
import { queryRows } from '../../server/db/database.ts';
import { CLINIC_COUNTS_TTL_MS } from '../../server/clinic/clinic-counts.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Patient search (docs/decisions/patient-search.md) against a plain reference on the same data:
 * the matches are exactly ILIKE's on first name, last name or email, and for a term of several
 * words ILIKE's on the full name either way round too ('first last', 'last first'); they come in
 * the tiers' order, whichever tier's plan finds them.
 */

let t: TestApp;
let nurse: SignedIn;

const LAST = [
  'Smith',
  'smithson',
  'Goldsmith',
  'BLACKSMITH',
  'Smith-Jones',
  'Johnson',
  'Jones',
  'Jonas',
  'Ajon',
  'Ojo',
  'Nguyen',
  'Lee',
  'Leeds',
  'Kim',
  'Éclair',
  'ébert',
  'Eberhart',
  "O'Brien",
  'Mc%Cann',
  'under_score',
  'back\\slash',
  'de la Cruz',
  'Zed',
];
const FIRST = ['John', 'Jo', 'Joanna', 'Mary', 'Rosemary', 'Smitty', 'Lee', 'Ana', 'Émile', 'emma', 'ÉMMA', 'Al%', 'Bo_b', 'Zoë'];
const EMAIL = (i: number, first: string, last: string): string | null => {
  switch (i % 6) {
    case 0:
      return null;
    case 1:
      return `${first}.${last}${i}@Example.com`.replace(/[^A-Za-z0-9.@%_\\-]/g, '');
    case 2:
      return `z${i}@SmithMail.org`;
    case 3:
      return `jo${i}@x.org`;
    case 4:
      return `p${i}@clinic.example`;
    default:
      return `${i}@mary-ann.net`;
  }
};

/** Every term class: none, one and two characters, prefixes, inner substrings, first-name and email-only, case, accents, LIKE's own characters, no match. */
const TERMS = [
  '',
  'a',
  'j',
  'jo',
  'JO',
  'Sm',
  'smith',
  'mith',
  'SMITH',
  'son',
  'lee',
  'ee',
  'mary',
  'emma',
  'émma',
  'É',
  'é',
  'ebe',
  "o'b",
  '%',
  '_',
  '\\',
  'al%',
  'bo_b',
  'smithmail',
  'example',
  '.org',
  '-jo',
  '1',
  '12',
  'zoë',
  'de la',
  'zzz',
  // Several words: across the first and the last name, either way round, any case.
  'john smith',
  'smith john',
  'SMITH JOHN',
  'John S',
  'j smith',
  'jo jo',
  'lee lee',
  'ee le',
  'mary  smith',
  'Smith, Mary',
  'ana de la',
  'de la cruz mary',
  'émile éclair',
  'ÉCLAIR ÉMILE',
  'al% mc%',
  'bo_b under_',
  'h j',
  'y r',
  'smith zzz',
  'a b c d e f g h i',
];

const likeOf = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The reference: ILIKE on the three fields, and for several words on the full name either way
 * round (a comma before a space read as a space), ordered by the tiers as plain CASE arithmetic.
 */
async function reference(term: string): Promise<string[]> {
  if (!term) {
    return (
      await queryRows<{ id: string }>(
        t.db,
        sql`
      select id from patients where is_active
      order by lower(last_name) collate "C", lower(first_name) collate "C", id`,
      )
    ).map((r) => r.id);
  }
  const p = likeOf(term);
  const words = term.replace(/,?\s+/g, ' ');
  const fullName = words.includes(' ')
    ? sql`first_name || ' ' || last_name ilike ${likeOf(words)} or last_name || ' ' || first_name ilike ${likeOf(words)}`
    : sql`false`;
  return (
    await queryRows<{ id: string }>(
      t.db,
      sql`
    select id from patients
    where is_active and (first_name ilike ${p} or last_name ilike ${p} or email ilike ${p} or ${fullName})
    order by case when position(lower(${term}) in lower(last_name)) = 1 then 0
                  when last_name ilike ${p} then 1 when first_name ilike ${p} then 2 when email ilike ${p} then 3 else 4 end,
             lower(last_name) collate "C", lower(first_name) collate "C", id`,
    )
  ).map((r) => r.id);
}

/** Every page of a search, following the cursor; the first page's total too. */
async function everyPage(term: string, limit: number, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let first: { total: string | undefined; capped: string | undefined } | null = null;
  for (let page = 1; page < 500; page++) {
    const query = new URLSearchParams({ limit: String(limit), ...(term ? { search: term } : {}), ...(cursor ? { cursor } : {}) });
    const res = await nurse.get(`/api/patients?${query}`);
    expect(res.statusCode, `${term} page ${page}: ${res.body}`).toBe(200);
    first ??= { total: res.headers['x-total-count'] as string | undefined, capped: res.headers['x-total-capped'] as string | undefined };
    ids.push(...res.json().map((p: { id: string }) => p.id));
    cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return { ids, ...first };
    await between?.(page);
  }
  throw new Error('no last page');
}

async function insertPatients(rows: { first: string; last: string; email: string | null; active?: boolean }[]) {
  if (rows.length === 0) return;
  const values = rows.map((r) => sql`(${r.first}, ${r.last}, ${r.email}, ${r.active ?? true})`);
  await t.db.execute(sql`insert into patients (first_name, last_name, email, is_active) values ${sql.join(values, sql`, `)}`);
}

beforeAll(async () => {
  t = await buildTestApp();
  nurse = await signInAs(t, 'nurse');
  const rows = [];
  for (let i = 0; i < 320; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 7) % LAST.length]!;
    rows.push({ first, last, email: EMAIL(i, first, last), active: i % 11 !== 0 });
  }
  await insertPatients(rows);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/patients?search= against a plain ILIKE reference', () => {
  it.each(TERMS.map((term) => [term]))("%j: the same patients in the tiers' order, each once, across pages", async (term) => {
    const expected = await reference(term);
    const { ids, total, capped } = await everyPage(term, 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
    if (term) {
      expect(total).toBe(String(expected.length));
      expect(capped).toBeUndefined();
    }
  });

  it('one page of everything matches the pages taken seven at a time', async () => {
    const whole = await nurse.get('/api/patients?search=smith&limit=200');
    expect(whole.json().map((p: { id: string }) => p.id)).toEqual(await reference('smith'));
  });

  it('pages stay whole while patients are added and renamed between page reads: none twice, none missed', async () => {
    const before = await reference('smith');
    const added: string[] = [];
    const { ids } = await everyPage('smith', 4, async (page) => {
      if (page !== 2 && page !== 5) return;
      // One for each tier, ahead of and behind where the pages have got to.
      const tag = `${page}${Math.random().toString(36).slice(2, 6)}`;
      const [a, b, c, d, e] = await queryRows<{ id: string }>(
        t.db,
        sql`
        insert into patients (first_name, last_name, email) values
          ('Aaron', ${`Smith`}, null), ('Zack', ${`Smithzz${tag}`}, null), ('Amy', ${`Aasmith${tag}`}, null),
          (${`Smithy${tag}`}, 'Aardvark', null), ('Ann', 'Zulu', ${`ann${tag}@smith.example`})
        returning id`,
      );
      added.push(a!.id, b!.id, c!.id, d!.id, e!.id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    // Everyone there from the start is shown, once, in order.
    expect(ids.filter((id) => before.includes(id))).toEqual(before);
    // What was added behind the pages already read may be missed; nothing else is.
    const after = await reference('smith');
    expect(ids.every((id) => after.includes(id))).toBe(true);
    expect(ids).toEqual(after.filter((id) => ids.includes(id)));
    expect(added.filter((id) => ids.includes(id)).length).toBeGreaterThanOrEqual(6);
  });

  it("keeps a renamed patient's new names searchable and drops the old ones", async () => {
    const [row] = await queryRows<{ id: string }>(t.db, sql`insert into patients (first_name, last_name) values ('Quill', 'Vantablack') returning id`);
    await t.db.execute(sql`update patients set last_name = 'Ultramarine' where id = ${row!.id}`);
    const ids = async (term: string) => (await nurse.get(`/api/patients?search=${term}`)).json().map((p: { id: string }) => p.id);
    expect(await ids('ultram')).toEqual([row!.id]);
    expect(await ids('tablack')).toEqual([]);
    expect(await ids('vanta')).toEqual([]);
  });
});

describe('a full name', () => {
  it("finds 'Liam Chen' by his full name either way round, any case, and in the pickers", async () => {
    const [liam] = await queryRows<{ id: string }>(t.db, sql`insert into patients (first_name, last_name) values ('Liam', 'Chen') returning id`);
    await insertPatients([
      { first: 'Liam', last: 'Chenoweth', email: null },
      { first: 'William', last: 'Cheng', email: null },
      { first: 'Chen', last: 'Liamson', email: null },
      { first: 'Liam', last: 'Chen', email: null, active: false },
      { first: 'Liam', last: 'Okafor', email: null },
    ]);
    const names = async (term: string, fields = '') => {
      const res = await nurse.get(`/api/patients?search=${encodeURIComponent(term)}${fields}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().map((p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`);
    };
    // In name order (byte order of the lower-cased names: Chen, Cheng, Chenoweth).
    expect(await names('Liam Chen')).toEqual(['Liam Chen', 'William Cheng', 'Liam Chenoweth']);
    expect(await names('chen liam')).toEqual(['Liam Chen', 'Chen Liamson']);
    expect(await names('LIAM CHEN')).toEqual(await names('liam chen'));
    expect(await names('Chen, Liam')).toEqual(await names('chen liam'));
    expect(await names('Liam C')).toEqual(['Liam Chen', 'William Cheng', 'Liam Chenoweth']);
    expect(await names('  liam   chen ')).toEqual(await names('liam chen'));
    // A picker asks for a few fields only; the same patients.
    const picker = await nurse.get(`/api/patients?search=${encodeURIComponent('Liam Chen')}&fields=firstName,lastName,dateOfBirth&limit=1`);
    expect(picker.json()).toEqual([{ id: liam!.id, firstName: 'Liam', lastName: 'Chen', dateOfBirth: null }]);
    expect(picker.headers['x-total-count']).toBe('3');
  });
});

describe('the capped total', () => {
  it('counts exactly up to 1,000, then says there are more', async () => {
    const cap = PATIENT_PAGE.totalCap;
    await t.db.execute(sql`insert into patients (first_name, last_name) select 'Cap', 'Capstone' || i from generate_series(1, ${cap}) i`);
    const exact = await nurse.get('/api/patients?search=capstone&limit=5');
    expect(exact.headers['x-total-count']).toBe(String(cap));
    expect(exact.headers['x-total-capped']).toBeUndefined();

    // One more, in a later tier (a first name), tips it over.
    await t.db.execute(sql`insert into patients (first_name, last_name) values ('Capstoneval', 'Other')`);
    // Written in SQL, not through the app: nothing tells the shared search pages, which last 5 s.
    t.clock.advance(CLINIC_COUNTS_TTL_MS);
    const capped = await nurse.get('/api/patients?search=capstone&limit=5');
    expect(capped.headers['x-total-count']).toBe(String(cap));
    expect(capped.headers['x-total-capped']).toBe('1');
    expect(capped.json()).toHaveLength(5);
    // Later pages carry no total.
    const next = await nurse.get(`/api/patients?search=capstone&limit=5&cursor=${capped.headers['x-next-cursor']}`);
    expect(next.headers['x-total-count']).toBeUndefined();
  });
});

describe('fields', () => {
  it('answers only the fields a picker asks for, and the id', async () => {
    const res = await nurse.get('/api/patients?search=smith&limit=3&fields=firstName,lastName,dateOfBirth');
    expect(res.statusCode).toBe(200);
    for (const p of res.json()) expect(Object.keys(p).sort()).toEqual(['dateOfBirth', 'firstName', 'id', 'lastName']);
  });

  it.each([['medicalNotes'], [''], ['firstName,passwordHash']])('refuses fields=%j with a 400 naming fields', async (fields) => {
    const res = await nurse.get(`/api/patients?search=smith&fields=${fields}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain('fields');
  });

  it('refuses a cursor from the unfiltered list on a search, and one from a search on the list', async () => {
    const list = await nurse.get('/api/patients?limit=2');
    const search = await nurse.get('/api/patients?search=smith&limit=2');
    expect((await nurse.get(`/api/patients?search=smith&cursor=${list.headers['x-next-cursor']}`)).statusCode).toBe(400);
    expect((await nurse.get(`/api/patients?cursor=${search.headers['x-next-cursor']}`)).statusCode).toBe(400);
  });
});

/**
 * Bounded searches: statement_timeout and cancelling a running statement are PostgreSQL's; the
 * embedded engine runs one statement at a time in-process and has neither (decision record).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a search that cannot finish (PostgreSQL)', () => {
  let slow: TestApp;
  let staff: SignedIn;
  beforeAll(async () => {
    slow = await buildTestApp({ SEARCH_TIMEOUT_MS: '300' });
    staff = await signInAs(slow, 'nurse');
    await slow.db.execute(sql`insert into patients (first_name, last_name) values ('Tim', 'Outerman')`);
  });
  afterAll(async () => {
    await slow?.close();
  });

  const auditRows = async () => (await queryRows<{ n: number }>(slow.db, sql`select count(*)::int as n from audit_events where action = 'patient.list'`))[0]!.n;

  it('is stopped at the timeout and answered 503 with Retry-After; nothing is written and nothing else waits', async () => {
    const audited = await auditRows();
    // Another transaction holds the patients table, as a long migration or a runaway query would.
    await slow.db.transaction(async (tx) => {
      await tx.execute(sql`lock table patients in access exclusive mode`);
      const res = await staff.get('/api/patients?search=outer');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.json()).toMatchObject({ code: 'search.timeout' });
      // A request that needs no patient is answered meanwhile.
      expect((await staff.get('/api/auth/user')).statusCode).toBe(200);
    });
    expect(await auditRows()).toBe(audited);
    const again = await staff.get('/api/patients?search=outer');
    expect(again.statusCode).toBe(200);
    expect(again.json().map((p: { lastName: string }) => p.lastName)).toEqual(['Outerman']);
    expect(await auditRows()).toBe(audited + 1);
  });

  it('stops the query on the server as soon as the client goes away', async () => {
    const patient = await buildTestApp({ SEARCH_TIMEOUT_MS: '60000' }, { sharing: slow });
    try {
      const base = await patient.app.listen({ port: 0, host: '127.0.0.1' });
      const waiting = () =>
        queryRows<{ pid: number }>(
          slow.db,
          sql`
        select pid from pg_stat_activity
        where datname = current_database() and state = 'active' and wait_event_type = 'Lock' and query like '%patients%'`,
        );
      await slow.db.transaction(async (tx) => {
        await tx.execute(sql`lock table patients in access exclusive mode`);
        const request = http.get(`${base}/api/patients?search=outer`, { headers: { cookie: `sid=${staff.cookie}` } });
        request.on('error', () => {});
        expect(await until(async () => (await waiting()).length === 1), 'the search never waited on the lock').toBe(true);
        const gone = Date.now();
        request.destroy();
        // Well before its 60 s timeout, the statement is gone while the lock is still held.
        expect(await until(async () => (await waiting()).length === 0), 'the statement ran on after its client left').toBe(true);
        expect(Date.now() - gone).toBeLessThan(5_000);
      });
    } finally {
      await patient.close();
    }
  });
});

/** Whether the condition came true within the time, asked every 20 ms. */
async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
