import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TChart, TChartRevision, TConditionOption, TFormularyOption, TMedication, TPreviousRecordMatch, TProblem } from '#domain/chart';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { patientMedications, patientProblems } from '../../server/db/schema/chart.ts';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The chart's problem list and medication list (issue 51): coded against their catalogues
// (ICD-10-CM, the formulary) or free text, with the lifecycle every list shares with allergies
// (drafts, versions, entered-in-error, history), and the bad input a clinic would type refused.

let t: TestApp;
let nurse: SignedIn;
let scribe: SignedIn;
let scheduler: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  [nurse, scribe, scheduler] = await Promise.all([signInAs(t, 'nurse'), signInAs(t, 'scribe'), signInAs(t, 'scheduler')]);
});
afterAll(async () => {
  await t?.close();
});

const newPatient = async () => (await insertPatient(t.db)).id;
const chartOf = async (patientId: string) => (await nurse.get(`/api/patients/${patientId}/chart`)).json() as TChart;
/** A 400's fields, each with its message. */
const fieldsOf = (res: { json: () => unknown }) =>
  Object.fromEntries(((res.json() as { errors?: { path: string; message: string }[] }).errors ?? []).map((e) => [e.path, e.message]));
const rowCounts = async () => [(await t.db.select().from(patientProblems)).length, (await t.db.select().from(patientMedications)).length];
const conditions = async (q: string) => (await nurse.get(`/api/chart/conditions?q=${encodeURIComponent(q)}`)).json() as TConditionOption[];
const formulary = async (q: string) => (await nurse.get(`/api/chart/formulary?q=${encodeURIComponent(q)}`)).json() as TFormularyOption[];

describe('the problem list', () => {
  it('records an ICD-10-CM condition by its code, titled by the catalogue, or free text; a scribe drafts, a nurse confirms', async () => {
    const patientId = await newPatient();
    const [hypertension] = await conditions('I10');
    expect(hypertension).toEqual({ code: 'I10', title: 'Essential (primary) hypertension' });
    const coded = await nurse.post(`/api/patients/${patientId}/problems`, { condition: { code: 'i10', name: 'ignored' }, onset: '2019-04-01' });
    expect(coded.statusCode, coded.body).toBe(201);
    expect(coded.json()).toMatchObject({
      condition: { code: 'I10', name: 'Essential (primary) hypertension' },
      clinicalStatus: 'active',
      verification: 'confirmed',
      state: 'confirmed',
    });
    const drafted = await scribe.post(`/api/patients/${patientId}/problems`, { condition: { name: 'Seasonal hay fever' }, verification: 'provisional' });
    expect(drafted.statusCode, drafted.body).toBe(201);
    const draft = drafted.json() as TProblem;
    expect([draft.state, draft.condition]).toEqual(['draft', { code: null, name: 'Seasonal hay fever' }]);
    expect((await nurse.post(`/api/patients/${patientId}/problems/${draft.id}/confirm`, { version: draft.version })).statusCode).toBe(200);
    expect((await chartOf(patientId)).problems.map((p) => [p.condition.name, p.state])).toEqual([
      ['Essential (primary) hypertension', 'confirmed'],
      ['Seasonal hay fever', 'confirmed'],
    ]);
    // Searching by words of the title finds it too.
    expect((await conditions('hypertens')).map((c) => c.code)).toContain('I10');
  });

  it('is resolved with its abatement, and a mistake is entered in error with its reason, kept in the history', async () => {
    const patientId = await newPatient();
    const problem = (await nurse.post(`/api/patients/${patientId}/problems`, { condition: { code: 'J06.9' }, onset: '2026-01-10' })).json() as TProblem;
    const resolved = await nurse.put(`/api/patients/${patientId}/problems/${problem.id}`, { clinicalStatus: 'resolved', abatement: '2026-01-20', version: 1 });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ clinicalStatus: 'resolved', abatement: '2026-01-20', onset: '2026-01-10', version: 2 });
    const noReason = await nurse.put(`/api/patients/${patientId}/problems/${problem.id}`, { verification: 'entered_in_error' });
    expect([noReason.statusCode, fieldsOf(noReason).reason]).toEqual([400, 'Say why this entry was entered in error']);
    const wrong = await nurse.put(`/api/patients/${patientId}/problems/${problem.id}`, { verification: 'entered_in_error', reason: 'Wrong patient' });
    expect(wrong.statusCode).toBe(200);
    const again = await nurse.put(`/api/patients/${patientId}/problems/${problem.id}`, { clinicalStatus: 'active' });
    expect(again.statusCode).toBe(409);
    const history = (await nurse.get(`/api/patients/${patientId}/chart/history?entryId=${problem.id}`)).json() as TChartRevision[];
    expect(history.map((r) => [r.action, r.reason])).toEqual([
      ['entered_in_error', 'Wrong patient'],
      ['updated', null],
      ['created', null],
    ]);
    expect(history[1]!.before).toMatchObject({ clinicalStatus: 'active', abatement: null });
  });

  it.each([
    ['an unknown code', { condition: { code: 'ZZZ.99' } }, 'condition.code'],
    ['neither code nor name', { condition: {} }, 'condition.name'],
    ['an onset ahead', { condition: { name: 'Gout' }, onset: '2999-01-01' }, 'onset'],
    ['an abatement before its onset', { condition: { name: 'Gout' }, onset: '2025-05-02', abatement: '2025-05-01', clinicalStatus: 'resolved' }, 'abatement'],
    ['an abatement of an active problem', { condition: { name: 'Gout' }, abatement: '2025-05-01' }, 'clinicalStatus'],
    ['an unknown status', { condition: { name: 'Gout' }, clinicalStatus: 'cured' }, 'clinicalStatus'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_case, body, field) => {
    const patientId = await newPatient();
    const before = await rowCounts();
    const res = await nurse.post(`/api/patients/${patientId}/problems`, body);
    expect([res.statusCode, Object.keys(fieldsOf(res))]).toEqual([400, [field]]);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('the medication list', () => {
  it('records a formulary medication by its id, named by the formulary, or free text reported by the patient', async () => {
    const patientId = await newPatient();
    const [lisinopril] = await formulary('lisinopril 10');
    expect(lisinopril).toMatchObject({ name: 'Lisinopril 10 mg tablet', route: 'oral', rxcui: '314076' });
    const res = await nurse.post(`/api/patients/${patientId}/medications`, {
      medication: { formularyId: lisinopril!.id, name: 'ignored' },
      dose: '1 tablet',
      route: 'oral',
      frequency: 'once daily',
      start: '2024-02-01',
      source: 'prescribed_here',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      medication: { formularyId: lisinopril!.id, name: 'Lisinopril 10 mg tablet' },
      status: 'active',
      source: 'prescribed_here',
    });
    const reported = await nurse.post(`/api/patients/${patientId}/medications`, { medication: { name: 'St John’s wort' }, frequency: 'daily' });
    expect(reported.statusCode, reported.body).toBe(201);
    expect(reported.json()).toMatchObject({ medication: { formularyId: null, name: 'St John’s wort' }, source: 'patient_reported' });
    expect((await chartOf(patientId)).medications).toHaveLength(2);
  });

  it('is stopped with the day and a reason; a stop without a day is refused', async () => {
    const patientId = await newPatient();
    const med = (
      await nurse.post(`/api/patients/${patientId}/medications`, { medication: { name: 'Ibuprofen 400 mg' }, start: '2026-03-01' })
    ).json() as TMedication;
    const noDay = await nurse.put(`/api/patients/${patientId}/medications/${med.id}`, { status: 'stopped' });
    expect([noDay.statusCode, fieldsOf(noDay).stop]).toEqual([400, 'A stopped medication needs the day it was stopped']);
    const stopped = await nurse.put(`/api/patients/${patientId}/medications/${med.id}`, { status: 'stopped', stop: '2026-03-10', stopReason: 'Stomach upset' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'stopped', stop: '2026-03-10', stopReason: 'Stomach upset', version: 2 });
  });

  it.each([
    ['an unknown formulary item', { medication: { formularyId: '00000000-0000-4000-8000-000000000000' } }, 'medication.formularyId'],
    ['neither item nor name', { medication: {} }, 'medication.name'],
    ['a stop before the start', { medication: { name: 'X' }, start: '2026-02-02', stop: '2026-02-01' }, 'stop'],
    ['a stopped one without a day', { medication: { name: 'X' }, status: 'stopped' }, 'stop'],
    ['an unknown route', { medication: { name: 'X' }, route: 'by mouth' }, 'route'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_case, body, field) => {
    const patientId = await newPatient();
    const before = await rowCounts();
    const res = await nurse.post(`/api/patients/${patientId}/medications`, body);
    expect([res.statusCode, Object.keys(fieldsOf(res))]).toEqual([400, [field]]);
    expect(await rowCounts()).toEqual(before);
  });

  it("is not a scheduler's: the chart and its lists are refused (403), the catalogues too", async () => {
    const patientId = await newPatient();
    expect((await scheduler.post(`/api/patients/${patientId}/medications`, { medication: { name: 'X' } })).statusCode).toBe(403);
    expect((await scheduler.post(`/api/patients/${patientId}/problems`, { condition: { name: 'X' } })).statusCode).toBe(403);
    expect((await scheduler.get('/api/chart/formulary?q=lis')).statusCode).toBe(403);
    expect((await scheduler.get('/api/chart/conditions?q=I10')).statusCode).toBe(403);
  });
});

describe('the notes from previous records, searched (the worklist for coding them)', () => {
  it('finds the patients whose old free text holds the words, in any of the three, in scope only, and audits whom it showed', async () => {
    const word = `zzq${randomBytes(3).toString('hex')}`;
    const withAllergy = await insertPatient(t.db, { lastName: `Aaron ${word}`, allergies: `Sulfa (${word.toUpperCase()} rash)` });
    const withHistory = await insertPatient(t.db, { lastName: `Baker ${word}`, medicalHistory: `Asthma; ${word}` });
    const restricted = await insertPatient(t.db, { lastName: `Cole ${word}`, currentMedications: word, restrictedAt: new Date() });
    await insertPatient(t.db, { lastName: `Dunn ${word}`, currentMedications: word, isActive: false });
    await insertPatient(t.db, { lastName: `Eve ${word}`, medicalHistory: '   ' });

    const res = await nurse.get(`/api/chart/previous-records?q=${word}`);
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json() as TPreviousRecordMatch[];
    expect(found.map((m) => m.patientId)).toEqual([withAllergy.id, withHistory.id]);
    expect(found[0]).toMatchObject({ allergies: `Sulfa (${word.toUpperCase()} rash)`, medicalHistory: null, currentMedications: null });
    expect(found.map((m) => m.patientId)).not.toContain(restricted.id);

    const [row] = await t.db
      .select({ patientIds: auditEvents.patientIds })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'chart.previous_records'), eq(auditEvents.actorId, nurse.user.id)))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(row?.patientIds?.sort()).toEqual([withAllergy.id, withHistory.id].sort());

    const first = await nurse.get(`/api/chart/previous-records?q=${word}&limit=1`);
    expect((first.json() as TPreviousRecordMatch[]).map((m) => m.patientId)).toEqual([withAllergy.id]);
    const second = await nurse.get(`/api/chart/previous-records?q=${word}&limit=1&cursor=${first.headers['x-next-cursor']}`);
    expect((second.json() as TPreviousRecordMatch[]).map((m) => m.patientId)).toEqual([withHistory.id]);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect((await scheduler.get(`/api/chart/previous-records?q=${word}`)).statusCode).toBe(403);
  });
});
