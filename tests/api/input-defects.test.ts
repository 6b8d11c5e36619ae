import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { patientInput, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Found by trying the running app as an attacker would: each of these answered 500, or was
// stored as sent (or quietly altered). Each must be a 400 naming the field, storing nothing
// and logging nothing.
let t: TestApp;
let nurse: SignedIn;
beforeAll(async () => {
  t = await buildTestApp({}, { captureLog: true });
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

const patientCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from patients`))[0]!.n;
/** A JSON body written by hand, so escapes such as a lone surrogate reach the server as sent. */
const rawJson = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([k, v]) => `"${k}":"${v}"`)
    .join(',')}}`;

function expectRefused(res: { statusCode: number; json: () => { code: string; errors?: { path: string }[] } }, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('request.validation');
  expect(res.json().errors?.map((e) => e.path)).toContain(field);
}

/** Nothing at error level, and not the value sent, anywhere in the log. */
function expectNothingLogged(marker: string) {
  expect(t.log()).not.toContain(marker);
  expect(t.log()).not.toMatch(/"level":50/);
}

describe('text that PostgreSQL cannot store, or that garbles a record', () => {
  it.each([
    ['a NUL', 'a\\u0000b'],
    ['\\u0001', 'a\\u0001b'],
    ['a bell', 'a\\u0007b'],
    ['an ESC sequence', '\\u001b[31mred'],
    ['CR/LF in a name', 'Ann\\r\\nLee'],
    ['only zero-width spaces', '\\u200b\\u200b'],
    ['a right-to-left override', 'Ann\\u202eeeL'],
    ['a lone surrogate', 'Ann\\ud800'],
  ])('a first name with %s is a 400 naming firstName, and nothing is stored', async (_label, value) => {
    const marker = unique('Zed');
    const before = await patientCount();
    const res = await nurse.post('/api/patients', rawJson({ firstName: value, lastName: marker }));
    expectRefused(res, 'firstName');
    expect(await patientCount()).toBe(before);
    expectNothingLogged(marker);
  });

  it('a NUL in the sign-in email, signed out, is a 400 naming email', async () => {
    const res = await anonymous(t).post('/api/auth/login', rawJson({ email: 'nurse\\u0000@x.clinic', password: 'x' }));
    expectRefused(res, 'email');
  });

  it('a NUL in a search term is a 400 naming search', async () => {
    expectRefused(await nurse.get('/api/patients?search=a%00b'), 'search');
  });

  it('a cursor whose JSON holds a NUL is a 400 naming cursor', async () => {
    const cursor = Buffer.from(JSON.stringify(['a\u0000', 'b', '00000000-0000-4000-8000-000000000000'])).toString('base64url');
    expectRefused(await nurse.get(`/api/patients?cursor=${cursor}`), 'cursor');
  });

  it('a multi-line field keeps newlines and tabs but refuses a NUL', async () => {
    const ok = await nurse.post('/api/patients', patientInput({ medicalHistory: 'Asthma\r\n\tsince 2001' }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().medicalHistory).toBe('Asthma\n\tsince 2001');
    expectRefused(await nurse.post('/api/patients', patientInput({ allergies: 'nuts\u0000' })), 'allergies');
  });

  it('a value no schema checks (the password) still cannot carry a NUL to the database', async () => {
    const res = await anonymous(t).post('/api/auth/login', rawJson({ email: 'a@b.clinic', password: 'x\\u0000y' }));
    expectRefused(res, 'password');
  });
});

describe('dates and timestamps', () => {
  it('an updatedAt in year 0000 is a 400 naming updatedAt, and the record is unchanged', async () => {
    const created = (await nurse.post('/api/patients', patientInput())).json();
    const res = await nurse.put(`/api/patients/${created.id}`, { phone: '555-0199', updatedAt: '0000-01-01T00:00:00Z' });
    expectRefused(res, 'updatedAt');
    expect((await nurse.get(`/api/patients/${created.id}`)).json().phone).toBe(created.phone);
  });

  it.each(['2000-01-01Tgarbage', '2000-01-01T10:00:00Z', '2000-02-30', '01/02/2000'])(
    'a date of birth of %j is a 400, never cut to its first ten characters',
    async (dateOfBirth) => {
      const before = await patientCount();
      expectRefused(await nurse.post('/api/patients', patientInput({ dateOfBirth })), 'dateOfBirth');
      expect(await patientCount()).toBe(before);
    },
  );
});

describe('a query that fails in the database', () => {
  it('is a 500 whose log names the statement but none of the values sent', async () => {
    const secret = { firstName: unique('Vera'), medicalHistory: unique('hidden-history'), insuranceNumber: unique('INS') };
    // Refuse this one name in the database itself, so the insert fails after validation passed.
    await t.db.execute(sql.raw(`alter table patients add constraint refuse_one_name check (first_name <> '${secret.firstName}')`));
    try {
      const res = await nurse.post('/api/patients', patientInput(secret));
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal server error', code: 'server.internal' });
      const log = t.log();
      expect(log).toMatch(/"level":50/);
      expect(log).toContain('"sqlState":"23514"');
      expect(log).toMatch(/insert into .*patients/);
      expect(log).toContain('refuse_one_name');
      for (const value of Object.values(secret)) expect(log).not.toContain(value);
    } finally {
      await t.db.execute(sql`alter table patients drop constraint refuse_one_name`);
    }
  });
});
