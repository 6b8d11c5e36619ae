import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAppointment } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Days are the clinic's: CLINIC_TIME_ZONE decides where a day starts and ends, including on the
// days its clocks change. New York: UTC-5 in winter, UTC-4 in summer; 2026-03-08 has 23 hours
// and 2026-11-01 has 25.
let t: TestApp;
let nurse: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({ CLINIC_TIME_ZONE: 'America/New_York' });
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

async function at(...instants: string[]) {
  const ids: Record<string, string> = {};
  for (const instant of instants) ids[instant] = (await insertAppointment(t.db, nurse.user.id, { appointmentDate: new Date(instant) })).id;
  return ids;
}

async function listed(client: SignedIn, query: string): Promise<string[]> {
  const res = await client.get(`/api/appointments?${query}`);
  expect(res.statusCode, query).toBe(200);
  return res.json().map((a: { appointmentDate: string }) => a.appointmentDate);
}

describe('one clinic day (?date=)', () => {
  it("starts and ends at the clinic's midnight, not UTC's", async () => {
    await at('2026-06-15T03:30:00.000Z', '2026-06-15T04:00:00.000Z', '2026-06-16T03:59:00.000Z', '2026-06-16T04:00:00.000Z');
    expect(await listed(nurse, 'date=2026-06-14')).toEqual(['2026-06-15T03:30:00.000Z']);
    expect(await listed(nurse, 'date=2026-06-15')).toEqual(['2026-06-15T04:00:00.000Z', '2026-06-16T03:59:00.000Z']);
  });

  it('has 23 hours when the clocks go forward (2026-03-08)', async () => {
    await at('2026-03-08T04:59:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T03:59:00.000Z', '2026-03-09T04:00:00.000Z');
    expect(await listed(nurse, 'date=2026-03-07')).toEqual(['2026-03-08T04:59:00.000Z']);
    expect(await listed(nurse, 'date=2026-03-08')).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T03:59:00.000Z']);
    expect(await listed(nurse, 'date=2026-03-09')).toEqual(['2026-03-09T04:00:00.000Z']);
  });

  it('has 25 hours when the clocks go back (2026-11-01), the repeated hour included twice', async () => {
    // 01:30 happens twice in New York that night: 05:30Z (EDT) and 06:30Z (EST).
    await at(
      '2026-11-01T03:59:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-02T04:59:00.000Z',
      '2026-11-02T05:00:00.000Z',
    );
    expect(await listed(nurse, 'date=2026-10-31')).toEqual(['2026-11-01T03:59:00.000Z']);
    expect(await listed(nurse, 'date=2026-11-01')).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-02T04:59:00.000Z',
    ]);
    expect(await listed(nurse, 'date=2026-11-02')).toEqual(['2026-11-02T05:00:00.000Z']);
  });

  it('follows the configured zone: the same instants fall on other days in Auckland', async () => {
    const auckland = await buildTestApp({ CLINIC_TIME_ZONE: 'Pacific/Auckland' }, { sharing: t });
    try {
      const nurseThere = await signInAs(auckland, 'nurse');
      // 2026-06-15T03:30Z is 15:30 on the 15th in Auckland (UTC+12), 23:30 on the 14th in New York.
      expect(await listed(nurseThere, 'date=2026-06-15')).toContain('2026-06-15T03:30:00.000Z');
      expect(await listed(nurseThere, 'date=2026-06-14')).not.toContain('2026-06-15T03:30:00.000Z');
    } finally {
      await auckland.close();
    }
  });
});

describe('a range of clinic days (?from=&to=)', () => {
  it('includes both ends, across a daylight-saving change', async () => {
    await at('2027-04-04T03:59:00.000Z', '2027-04-04T04:00:00.000Z', '2027-04-06T03:59:00.000Z', '2027-04-06T04:00:00.000Z');
    // Winter to summer inside the range: 2027-03-01 (EST) to 2027-04-05 (EDT).
    await at('2027-03-01T05:00:00.000Z', '2027-03-01T04:59:00.000Z');
    expect(await listed(nurse, 'from=2027-03-01&to=2027-04-05')).toEqual([
      '2027-03-01T05:00:00.000Z',
      '2027-04-04T03:59:00.000Z',
      '2027-04-04T04:00:00.000Z',
      '2027-04-06T03:59:00.000Z',
    ]);
    expect(await listed(nurse, 'from=2027-04-04&to=2027-04-04')).toEqual(['2027-04-04T04:00:00.000Z']);
  });

  it('may be open at either end', async () => {
    await at('2035-01-10T15:00:00.000Z', '2035-01-12T15:00:00.000Z');
    expect(await listed(nurse, 'from=2035-01-11')).toEqual(['2035-01-12T15:00:00.000Z']);
    const upTo = await listed(nurse, 'to=2035-01-11&limit=500');
    expect(upTo).toContain('2035-01-10T15:00:00.000Z');
    expect(upTo).not.toContain('2035-01-12T15:00:00.000Z');
  });
});

describe('paging', () => {
  it('walks a day in time order by cursor, each appointment once, with the total on the first page', async () => {
    const instants = [
      '2036-02-02T14:00:00.000Z',
      '2036-02-02T14:00:00.000Z',
      '2036-02-02T15:00:00.000Z',
      '2036-02-02T16:00:00.000Z',
      '2036-02-02T17:00:00.000Z',
    ];
    const ids = [];
    for (const instant of instants) ids.push((await insertAppointment(t.db, nurse.user.id, { appointmentDate: new Date(instant) })).id);
    const seen: string[] = [];
    let url = '/api/appointments?date=2036-02-02&limit=2';
    const first = await nurse.get(url);
    expect(first.headers['x-total-count']).toBe('5');
    for (let res = first; ; res = await nurse.get(url)) {
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().map((a: { id: string }) => a.id));
      if (res !== first) expect(res.headers['x-total-count']).toBeUndefined();
      const next = res.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/appointments?date=2036-02-02&limit=2&cursor=${next}`;
    }
    const sameTime = ids.slice(0, 2).sort();
    expect(seen).toEqual([...sameTime, ...ids.slice(2)]);
  });

  it("walks the past newest first with order=desc (the All tab's Past), each appointment once, the audit naming each patient", async () => {
    const instants = [
      '2036-03-01T14:00:00.000Z',
      '2036-03-02T14:00:00.000Z',
      '2036-03-02T14:00:00.000Z',
      '2036-03-03T09:00:00.000Z',
      '2036-03-04T09:00:00.000Z',
    ];
    const rows = [];
    for (const instant of instants) rows.push(await insertAppointment(t.db, nurse.user.id, { appointmentDate: new Date(instant) }));
    const seen: string[] = [];
    let url = '/api/appointments?from=2036-03-01&to=2036-03-03&order=desc&limit=2';
    const first = await nurse.get(url);
    expect(first.headers['x-total-count']).toBe('4');
    for (let res = first; ; res = await nurse.get(url)) {
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().map((a: { id: string }) => a.id));
      const next = res.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/appointments?from=2036-03-01&to=2036-03-03&order=desc&limit=2&cursor=${next}`;
    }
    const sameTime = [rows[1]!.id, rows[2]!.id].sort().reverse();
    expect(seen).toEqual([rows[3]!.id, ...sameTime, rows[0]!.id]);
    // The default stays soonest first, as the spec's client expects.
    expect((await nurse.get('/api/appointments?from=2036-03-01&to=2036-03-03')).json().map((a: { id: string }) => a.id)).toEqual(seen.reverse());
    expect((await nurse.get('/api/appointments?order=newest')).json().errors[0].path).toBe('order');
  });

  it('an empty day is an empty list with a total of 0', async () => {
    const res = await nurse.get('/api/appointments?date=2099-12-31');
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    expect(res.headers['x-next-cursor']).toBeUndefined();
  });
});
