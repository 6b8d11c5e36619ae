import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_COUNTS_MAX_DAYS } from '#domain/appointments';
import { appointments, patients } from '../../server/db/schema/clinical.ts';
import { insertAppointment, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The calendar's load colours: appointments per clinic day, days taken in CLINIC_TIME_ZONE
// (New York here: UTC-5 in winter, UTC-4 in summer). Each test uses days of its own.
let t: TestApp;
let nurse: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({ CLINIC_TIME_ZONE: 'America/New_York' });
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

async function at(instant: string, status: typeof appointments.$inferInsert.status = 'scheduled') {
  await insertAppointment(t.db, nurse.user.id, { appointmentDate: new Date(instant), status });
}

async function counts(client: SignedIn, query: string) {
  const res = await client.get(`/api/appointments/day-counts?${query}`);
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json().days as { date: string; count: number }[];
}

describe('GET /api/appointments/day-counts', () => {
  it('counts each clinic day, only the days that have any, in date order', async () => {
    await at('2040-02-03T15:00:00.000Z');
    await at('2040-02-05T14:00:00.000Z');
    await at('2040-02-05T16:00:00.000Z');
    await at('2040-02-05T18:00:00.000Z');
    expect(await counts(nurse, 'from=2040-02-01&to=2040-02-29')).toEqual([
      { date: '2040-02-03', count: 1 },
      { date: '2040-02-05', count: 3 },
    ]);
    // Both ends are included.
    expect(await counts(nurse, 'from=2040-02-05&to=2040-02-05')).toEqual([{ date: '2040-02-05', count: 3 }]);
    expect(await counts(nurse, 'from=2040-02-04&to=2040-02-04')).toEqual([]);
  });

  it("takes days at the clinic's midnight, not UTC's", async () => {
    // 03:30Z on the 15th is 23:30 on the 14th in New York (EDT); 04:00Z is midnight of the 15th.
    await at('2040-06-15T03:30:00.000Z');
    await at('2040-06-15T04:00:00.000Z');
    await at('2040-06-16T03:59:00.000Z');
    expect(await counts(nurse, 'from=2040-06-14&to=2040-06-16')).toEqual([
      { date: '2040-06-14', count: 1 },
      { date: '2040-06-15', count: 2 },
    ]);
  });

  it('follows daylight saving: the 23-hour day and the 25-hour day', async () => {
    // 2041-03-10 has 23 hours in New York (05:00Z to 04:00Z next day); 2041-11-03 has 25.
    await at('2041-03-10T04:59:00.000Z');
    await at('2041-03-10T05:00:00.000Z');
    await at('2041-03-11T03:59:00.000Z');
    await at('2041-03-11T04:00:00.000Z');
    await at('2041-11-03T04:00:00.000Z');
    await at('2041-11-03T05:30:00.000Z');
    await at('2041-11-03T06:30:00.000Z');
    await at('2041-11-04T04:59:00.000Z');
    await at('2041-11-04T05:00:00.000Z');
    expect(await counts(nurse, 'from=2041-03-09&to=2041-03-11')).toEqual([
      { date: '2041-03-09', count: 1 },
      { date: '2041-03-10', count: 2 },
      { date: '2041-03-11', count: 1 },
    ]);
    expect(await counts(nurse, 'from=2041-11-03&to=2041-11-04')).toEqual([
      { date: '2041-11-03', count: 4 },
      { date: '2041-11-04', count: 1 },
    ]);
  });

  it('counts only appointments that hold their time: not cancelled or no-show ones', async () => {
    await at('2042-01-10T15:00:00.000Z', 'scheduled');
    await at('2042-01-10T15:00:00.000Z', 'checked_in');
    await at('2042-01-10T15:00:00.000Z', 'in_progress');
    await at('2042-01-10T15:00:00.000Z', 'completed');
    await at('2042-01-10T15:00:00.000Z', 'cancelled');
    await at('2042-01-10T15:00:00.000Z', 'no_show');
    expect(await counts(nurse, 'from=2042-01-10&to=2042-01-10')).toEqual([{ date: '2042-01-10', count: 4 }]);
  });

  it('is right however many a day holds, far beyond a page of the list', async () => {
    const many = 620;
    const people = await t.db
      .insert(patients)
      .values(Array.from({ length: many }, () => ({ firstName: unique('Ann'), lastName: unique('Lee') })))
      .returning({ id: patients.id });
    await t.db
      .insert(appointments)
      .values(people.map((p, i) => ({ patientId: p.id, providerId: nurse.user.id, appointmentDate: new Date(Date.UTC(2043, 4, 20, 13, i % 60)) })));
    expect(await counts(nurse, 'from=2043-05-01&to=2043-05-31')).toEqual([{ date: '2043-05-20', count: many }]);
  });

  it(`answers for every role that reads appointments, over at most ${DAY_COUNTS_MAX_DAYS} days`, async () => {
    for (const role of ['admin', 'scheduler', 'scribe'] as const) {
      const client = await signInAs(t, role);
      expect(await counts(client, 'from=2040-02-05&to=2040-02-05')).toEqual([{ date: '2040-02-05', count: 3 }]);
    }
    // Six whole weeks of a month grid fit.
    expect(await counts(nurse, 'from=2040-01-01&to=2040-03-02')).toHaveLength(2);
    const supplier = await signInAs(t, 'supplier');
    expect((await supplier.get('/api/appointments/day-counts?from=2040-02-01&to=2040-02-29')).statusCode).toBe(403);
  });

  it.each([
    ['more than the most days at once', 'from=2040-01-01&to=2040-03-03', 'to'],
    ['to before from', 'from=2040-02-10&to=2040-02-09', 'to'],
    ['no from', 'to=2040-02-09', 'from'],
    ['no to', 'from=2040-02-09', 'to'],
    ['an unreal date', 'from=2040-02-30&to=2040-03-02', 'from'],
    ['an unknown parameter', 'from=2040-02-01&to=2040-02-02&status=scheduled', null],
  ])('refuses %s with 400', async (_case, query, path) => {
    const res = await nurse.get(`/api/appointments/day-counts?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    if (path) expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe('GET /api/appointments/clinic-time', () => {
  it("gives the clinic's time zone to every role that reads appointments, and none to a supplier", async () => {
    const res = await nurse.get('/api/appointments/clinic-time');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ timeZone: 'America/New_York' });
    const supplier = await signInAs(t, 'supplier');
    expect((await supplier.get('/api/appointments/clinic-time')).statusCode).toBe(403);
  });
});
