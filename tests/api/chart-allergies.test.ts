import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAllergy, TChart, TChartRevision, TSubstanceOption } from '#domain/chart';
import type { TPatient } from '#domain/patients';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { patientAllergies } from '../../server/db/schema/chart.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The chart's allergy list (issue 51): coded or free text, versioned and never deleted, drafted
// by a scribe for a nurse to confirm, with the patient's NKA / NKDA statement kept consistent
// with it, and the banner's summary sent with her record.

let t: TestApp;
let nurse: SignedIn;
let otherNurse: SignedIn;
let scribe: SignedIn;
let otherScribe: SignedIn;
let scheduler: SignedIn;
let supplier: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  [nurse, otherNurse, scribe, otherScribe, scheduler, supplier] = await Promise.all([
    signInAs(t, 'nurse'),
    signInAs(t, 'nurse'),
    signInAs(t, 'scribe'),
    signInAs(t, 'scribe'),
    signInAs(t, 'scheduler'),
    signInAs(t, 'supplier'),
  ]);
});
afterAll(async () => {
  await t?.close();
});

const PENICILLIN_RASH = {
  substance: { kind: 'class', code: 'penicillins', name: 'ignored' },
  category: 'medication',
  reactions: ['Hives'],
  criticality: 'high',
} as const;
const newPatient = async () => (await insertPatient(t.db)).id;
const chartOf = async (who: SignedIn, patientId: string) => (await who.get(`/api/patients/${patientId}/chart`)).json() as TChart;
const record = async (who: SignedIn, patientId: string, body: object) => who.post(`/api/patients/${patientId}/allergies`, body);

describe('an allergy', () => {
  it("is recorded coded, named by the catalogue (never the client), confirmed as a nurse writes it, and shown on the chart and the patient's banner", async () => {
    const patientId = await newPatient();
    const res = await record(nurse, patientId, PENICILLIN_RASH);
    expect(res.statusCode, res.body).toBe(201);
    const allergy = res.json() as TAllergy;
    expect(allergy).toMatchObject({
      substance: { kind: 'class', code: 'penicillins', name: 'Penicillins' },
      state: 'confirmed',
      version: 1,
      status: 'active',
      type: 'allergy',
    });
    expect((await chartOf(nurse, patientId)).allergies.map((a) => a.id)).toEqual([allergy.id]);
    await record(nurse, patientId, { substance: { kind: 'allergen', code: 'latex' }, category: 'environment', criticality: 'low' });
    // The banner comes with her record: high criticality first.
    const summary = ((await nurse.get(`/api/patients/${patientId}`)).json() as TPatient).allergySummary!;
    expect(summary.state).toBe('listed');
    expect(summary.allergies.map((a) => [a.name, a.criticality])).toEqual([
      ['Penicillins', 'high'],
      ['Latex (natural rubber)', 'low'],
    ]);
  });

  it('refuses what is not an allergy with a 400 naming the field, and writes nothing', async () => {
    const patientId = await newPatient();
    const refused = async (body: object, path: string) => {
      const res = await record(nurse, patientId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        (res.json().errors as { path: string }[]).map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    };
    await refused({ ...PENICILLIN_RASH, substance: { kind: 'ingredient', code: 'unobtainium' } }, 'substance.code');
    await refused({ ...PENICILLIN_RASH, substance: { kind: 'class', code: 'no-such-class' } }, 'substance.code');
    await refused({ ...PENICILLIN_RASH, substance: { kind: 'allergen', code: 'peanut' }, category: 'medication' }, 'category');
    await refused({ ...PENICILLIN_RASH, onset: '2999-01-01' }, 'onset');
    await refused({ ...PENICILLIN_RASH, criticality: 'extreme' }, 'criticality');
    await refused({ ...PENICILLIN_RASH, substance: { kind: 'text', name: '   ' } }, 'substance.name');
    await refused({ ...PENICILLIN_RASH, reactions: Array.from({ length: 11 }, () => 'Rash') }, 'reactions');
    await refused({ ...PENICILLIN_RASH, extra: 1 }, 'extra');
    expect(await t.db.select().from(patientAllergies).where(eq(patientAllergies.patientId, patientId))).toEqual([]);
  });

  it("is a scribe's draft until a nurse confirms it; only she changes it meanwhile; a scheduler sees the banner, not the chart; a supplier neither", async () => {
    const patientId = await newPatient();
    const draft = (await record(scribe, patientId, { substance: { kind: 'ingredient', code: 'amoxicillin' }, category: 'medication' })).json() as TAllergy;
    expect(draft).toMatchObject({ state: 'draft', confirmedAt: null, substance: { name: 'Amoxicillin' } });
    expect((await otherScribe.put(`/api/patients/${patientId}/allergies/${draft.id}`, { reactions: ['Rash'] })).statusCode).toBe(403);
    expect((await scribe.put(`/api/patients/${patientId}/allergies/${draft.id}`, { reactions: ['Rash'], version: 1 })).json()).toMatchObject({
      state: 'draft',
      version: 2,
    });
    expect((await scribe.post(`/api/patients/${patientId}/allergies/${draft.id}/confirm`, {})).statusCode).toBe(403);
    expect(((await scheduler.get(`/api/patients/${patientId}`)).json() as TPatient).allergySummary!.allergies).toEqual([
      { name: 'Amoxicillin', criticality: 'unable_to_assess', reactions: ['Rash'], confirmed: false },
    ]);
    expect((await scheduler.get(`/api/patients/${patientId}/chart`)).statusCode).toBe(403);
    expect((await supplier.get(`/api/patients/${patientId}`)).statusCode).toBe(403);

    const stale = await nurse.post(`/api/patients/${patientId}/allergies/${draft.id}/confirm`, { version: 1 });
    expect([stale.statusCode, stale.json().code]).toEqual([409, 'record.stale']);
    const confirmed = (await nurse.post(`/api/patients/${patientId}/allergies/${draft.id}/confirm`, { version: 2 })).json() as TAllergy;
    expect(confirmed).toMatchObject({ state: 'confirmed', version: 3, confirmedByName: `${nurse.user.firstName} ${nurse.user.lastName}` });
    expect((await nurse.post(`/api/patients/${patientId}/allergies/${draft.id}/confirm`, {})).json().code).toBe('workflow.illegalMove');
    // Confirmed, it is no longer the scribe's to change.
    expect((await scribe.put(`/api/patients/${patientId}/allergies/${draft.id}`, { note: 'x' })).statusCode).toBe(403);
  });

  it('is never deleted: a mistake is entered in error, with its reason, kept in the history, and stays as it is', async () => {
    const patientId = await newPatient();
    const allergy = (await record(nurse, patientId, PENICILLIN_RASH)).json() as TAllergy;
    const withoutReason = await nurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, { status: 'entered_in_error' });
    expect([withoutReason.statusCode, withoutReason.json().errors[0].path]).toEqual([400, 'reason']);
    const overSomeoneElse = await otherNurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, { severity: 'severe', version: 1 });
    expect(overSomeoneElse.statusCode).toBe(200);
    const late = await nurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, { status: 'entered_in_error', reason: 'Wrong patient', version: 1 });
    expect([late.statusCode, late.json().code]).toEqual([409, 'record.stale']);
    const withdrawn = await nurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, {
      status: 'entered_in_error',
      reason: 'Wrong patient',
      version: 2,
    });
    expect(withdrawn.json()).toMatchObject({ status: 'entered_in_error', version: 3, severity: 'severe' });
    expect((await nurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, { status: 'active' })).json().code).toBe('workflow.illegalMove');

    const [row] = await t.db.select().from(patientAllergies).where(eq(patientAllergies.id, allergy.id));
    expect(row).toMatchObject({ status: 'entered_in_error', substanceName: 'Penicillins' });
    const history = (await nurse.get(`/api/patients/${patientId}/chart/history?entryId=${allergy.id}`)).json() as TChartRevision[];
    expect(history.map((h) => [h.action, h.before?.status ?? null, h.after?.status ?? null, h.reason])).toEqual([
      ['entered_in_error', 'active', 'entered_in_error', 'Wrong patient'],
      ['updated', 'active', 'active', null],
      ['created', null, 'active', null],
    ]);
    expect([history[1]!.before!.severity, history[1]!.after!.severity]).toEqual([null, 'severe']);
    // Out of the banner, still on the chart.
    expect(((await nurse.get(`/api/patients/${patientId}`)).json() as TPatient).allergySummary!.state).toBe('unknown');
    expect((await chartOf(nurse, patientId)).allergies.map((a) => a.status)).toEqual(['entered_in_error']);
  });

  it('changes nothing, not even its version, when what is sent is what it holds', async () => {
    const patientId = await newPatient();
    const allergy = (await record(nurse, patientId, PENICILLIN_RASH)).json() as TAllergy;
    const same = await nurse.put(`/api/patients/${patientId}/allergies/${allergy.id}`, { criticality: 'high', reactions: ['Hives'] });
    expect(same.json()).toMatchObject({ version: 1 });
    expect((await nurse.get(`/api/patients/${patientId}/chart/history?entryId=${allergy.id}`)).json()).toHaveLength(1);
  });
});

describe("the patient's statement", () => {
  it('NKA and NKDA are recorded by someone at a time, look different from never asked, and her list keeps them true', async () => {
    const patientId = await newPatient();
    const summary = async () => ((await nurse.get(`/api/patients/${patientId}`)).json() as TPatient).allergySummary!;
    expect(await summary()).toEqual({ state: 'unknown', allergies: [], statement: null });
    expect((await scribe.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nka' })).statusCode).toBe(403);
    expect((await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nka' })).statusCode).toBe(200);
    expect(await summary()).toMatchObject({
      state: 'nka',
      statement: { value: 'nka', at: expect.any(String), byName: `${nurse.user.firstName} ${nurse.user.lastName}` },
    });

    // A food allergy ends NKA (withdrawn in the same transaction, with its history).
    await record(nurse, patientId, { substance: { kind: 'allergen', code: 'peanut' }, category: 'food', criticality: 'high' });
    expect(await summary()).toMatchObject({ state: 'listed', statement: null });
    const refused = await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nka' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, expect.stringContaining('Peanut')]);
    // NKDA beside a food allergy is true; a drug allergy then ends it.
    expect((await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nkda' })).statusCode).toBe(200);
    expect(await summary()).toMatchObject({ state: 'listed', statement: { value: 'nkda' } });
    await record(nurse, patientId, { substance: { kind: 'text', name: 'Trimethoprim' }, category: 'medication' });
    expect((await summary()).statement).toBeNull();
    const history = (await nurse.get(`/api/patients/${patientId}/chart/history`)).json() as TChartRevision[];
    expect(history.filter((h) => h.list === 'assessment').map((h) => [h.before?.value ?? null, h.after?.value ?? null])).toEqual([
      ['nkda', null],
      [null, 'nkda'],
      ['nka', null],
      [null, 'nka'],
    ]);
  });
});

describe('the chart of a restricted patient', () => {
  it("is hers and her care team's: anyone else is refused every read and write (403 record.restricted), and nothing is written", async () => {
    const patientId = await newPatient();
    await t.db.update(patients).set({ restrictedAt: t.clock.now() }).where(eq(patients.id, patientId));
    await t.db.insert(patientCareTeam).values({ patientId, userId: otherNurse.user.id });
    t.clock.advance(3_000);
    for (const res of [
      await nurse.get(`/api/patients/${patientId}/chart`),
      await nurse.get(`/api/patients/${patientId}/chart/history`),
      await record(nurse, patientId, PENICILLIN_RASH),
      await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nka' }),
    ]) {
      expect([res.statusCode, res.json().code]).toEqual([403, 'record.restricted']);
    }
    expect(await t.db.select().from(patientAllergies).where(eq(patientAllergies.patientId, patientId))).toEqual([]);
    expect((await record(otherNurse, patientId, PENICILLIN_RASH)).statusCode).toBe(201);
    expect((await chartOf(otherNurse, patientId)).allergies).toHaveLength(1);
  });
});

describe('reads and writes', () => {
  it('are audited: the chart read as chart.read of the patient, each change as its action on the entry', async () => {
    const patientId = await newPatient();
    const allergy = (await record(nurse, patientId, PENICILLIN_RASH)).json() as TAllergy;
    await chartOf(nurse, patientId);
    await sealCommitted(t.db, 20_000);
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.patientId, patientId));
    expect(rows.map((r) => [r.action, r.entityType, r.entityId])).toEqual(
      expect.arrayContaining([
        ['chart.create', 'chart_entry', allergy.id],
        ['chart.read', 'patient', patientId],
      ]),
    );
  });

  it('offers substances by any part of their name: drug classes, ingredients of the formulary, non-drug allergens', async () => {
    const found = (await nurse.get('/api/chart/substances?q=penic')).json() as TSubstanceOption[];
    expect(found.map((s) => [s.kind, s.code])).toEqual(
      expect.arrayContaining([
        ['class', 'penicillins'],
        ['ingredient', 'penicillin v'],
      ]),
    );
    const latex = (await nurse.get('/api/chart/substances?q=LATEX')).json() as TSubstanceOption[];
    expect(latex).toContainEqual({ kind: 'allergen', code: 'latex', name: 'Latex (natural rubber)', category: 'environment' });
    expect((await nurse.get('/api/chart/substances?q=')).statusCode).toBe(400);
    expect((await supplier.get('/api/chart/substances?q=pen')).statusCode).toBe(403);
  });
});
