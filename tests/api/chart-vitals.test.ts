import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TChart } from '#domain/chart';
import type { TVitalsSet, TVitalTrendPoint } from '#domain/vital-signs';
import { clinicSettings } from '../../server/db/schema/auth.ts';
import { vitalSigns } from '../../server/db/schema/chart.ts';
import { insertAppointment, insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Vital signs on the chart (issue 51): a set entered in the clinic's units and stored canonical,
// BMI computed, values flagged against the normal range, typos refused naming the field, a wrong
// set withdrawn (entered in error) rather than edited, and each sign's trend.

let t: TestApp;
let nurse: SignedIn;
let scheduler: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  [nurse, scheduler] = await Promise.all([signInAs(t, 'nurse'), signInAs(t, 'scheduler')]);
});
afterAll(async () => {
  await t?.close();
});

const newPatient = async () => (await insertPatient(t.db)).id;
const record = (patientId: string, body: object) => nurse.post(`/api/patients/${patientId}/vitals`, body);
const fieldsOf = (res: { json: () => unknown }) =>
  Object.fromEntries(((res.json() as { errors?: { path: string; message: string }[] }).errors ?? []).map((e) => [e.path, e.message]));
const trend = async (patientId: string, sign: string) => (await nurse.get(`/api/patients/${patientId}/vitals/trend?sign=${sign}`)).json() as TVitalTrendPoint[];

describe('a set of vital signs', () => {
  it('entered in US units is stored canonical, with BMI computed and each value flagged', async () => {
    const patientId = await newPatient();
    const res = await record(patientId, {
      unitSystem: 'us',
      takenAt: '2026-03-10T15:00:00Z',
      systolic: 152,
      diastolic: 94,
      heartRate: 72,
      temperature: 98.6,
      spo2: 97,
      weight: 154.3,
      height: 69,
      pain: 2,
    });
    expect(res.statusCode, res.body).toBe(201);
    const set = res.json() as TVitalsSet;
    expect(set.values).toMatchObject({
      systolic: 152,
      diastolic: 94,
      heartRate: 72,
      temperature: 37,
      spo2: 97,
      weight: 69.99,
      height: 175.26,
      pain: 2,
      bmi: 22.8,
    });
    expect(set.flags).toMatchObject({ systolic: 'high', diastolic: 'high', heartRate: null, temperature: null, bmi: null, respiratoryRate: null });
    const chart = (await nurse.get(`/api/patients/${patientId}/chart`)).json() as TChart;
    expect([chart.vitals.map((v) => v.id), chart.unitSystem]).toEqual([[set.id], 'metric']);
  });

  it('refuses a typo (1,200 bpm), a pressure upside down, a time ahead and a visit of someone else, naming the field, and writes nothing', async () => {
    const patientId = await newPatient();
    const otherPatient = await newPatient();
    const count = async () => (await t.db.select().from(vitalSigns).where(eq(vitalSigns.patientId, patientId))).length;
    expect(fieldsOf(await record(patientId, { heartRate: 1200 }))).toEqual({ heartRate: 'Heart rate must be between 20 and 300 bpm' });
    expect(fieldsOf(await record(patientId, { unitSystem: 'us', temperature: 986 }))).toEqual({ temperature: 'Temperature must be between 86 and 113 °F' });
    expect(Object.keys(fieldsOf(await record(patientId, { systolic: 70, diastolic: 110 })))).toEqual(['diastolic']);
    expect(Object.keys(fieldsOf(await record(patientId, { heartRate: 70, takenAt: '2999-01-01T00:00:00Z' })))).toEqual(['takenAt']);
    const visit = await insertAppointment(t.db, nurse.user.id, { patientId: otherPatient });
    expect(Object.keys(fieldsOf(await record(patientId, { heartRate: 70, appointmentId: visit.id })))).toEqual(['appointmentId']);
    expect(Object.keys(fieldsOf(await record(patientId, {})))).toEqual(['body']);
    expect(await count()).toBe(0);
  });

  it('taken wrong is entered in error with a reason: it leaves the trend, stays in the chart, and its values are never edited', async () => {
    const patientId = await newPatient();
    const right = (await record(patientId, { takenAt: '2026-01-01T10:00:00Z', weight: 70 })).json() as TVitalsSet;
    const wrong = (await record(patientId, { takenAt: '2026-02-01T10:00:00Z', weight: 7 })).json() as TVitalsSet;
    expect((await trend(patientId, 'weight')).map((p) => p.value)).toEqual([70, 7]);
    expect((await nurse.put(`/api/patients/${patientId}/vitals/${wrong.id}`, { weight: 70 })).statusCode).toBe(400);
    const withdrawn = await nurse.put(`/api/patients/${patientId}/vitals/${wrong.id}`, {
      status: 'entered_in_error',
      reason: 'Typed 7 for 70',
      version: wrong.version,
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await trend(patientId, 'weight')).map((p) => p.value)).toEqual([70]);
    const chart = (await nurse.get(`/api/patients/${patientId}/chart`)).json() as TChart;
    expect(chart.vitals.map((v) => [v.id, v.status])).toEqual([
      [wrong.id, 'entered_in_error'],
      [right.id, 'final'],
    ]);
  });

  it("gives each sign's trend oldest first, BMI computed where weight and height were both taken", async () => {
    const patientId = await newPatient();
    await record(patientId, { takenAt: '2025-01-01T10:00:00Z', weight: 80, height: 180 });
    await record(patientId, { takenAt: '2024-01-01T10:00:00Z', weight: 85, height: 180, systolic: 150, diastolic: 95 });
    await record(patientId, { takenAt: '2026-01-01T10:00:00Z', weight: 78 });
    expect((await trend(patientId, 'weight')).map((p) => p.value)).toEqual([85, 80, 78]);
    expect(await trend(patientId, 'bmi')).toEqual([
      { takenAt: '2024-01-01T10:00:00.000Z', value: 26.2, flag: 'high' },
      { takenAt: '2025-01-01T10:00:00.000Z', value: 24.7, flag: null },
    ]);
    expect((await trend(patientId, 'systolic')).map((p) => [p.value, p.flag])).toEqual([[150, 'high']]);
    expect((await nurse.get(`/api/patients/${patientId}/vitals/trend?sign=pulse`)).statusCode).toBe(400);
  });

  it("shows in the clinic's units setting, and is not a scheduler's to read or write", async () => {
    const patientId = await newPatient();
    await t.db.update(clinicSettings).set({ unitSystem: 'us' });
    try {
      expect(((await nurse.get(`/api/patients/${patientId}/chart`)).json() as TChart).unitSystem).toBe('us');
    } finally {
      await t.db.update(clinicSettings).set({ unitSystem: 'metric' });
    }
    expect((await scheduler.post(`/api/patients/${patientId}/vitals`, { heartRate: 70 })).statusCode).toBe(403);
    expect((await scheduler.get(`/api/patients/${patientId}/vitals/trend?sign=weight`)).statusCode).toBe(403);
  });
});
