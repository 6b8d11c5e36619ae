import { and, eq, sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrescription } from '#domain/prescriptions';
import { ZTotpSetup } from '#domain/second-factor';
import { queryRows } from '../../server/db/database.ts';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { patientMedications } from '../../server/db/schema/chart.ts';
import { prescriptions } from '../../server/db/schema/prescriptions.ts';
import { totpCodeAt } from '../../server/modules/auth/totp.ts';
import type { TServerMessage } from '#domain/live-events';
import { insertAppointment, patientInput, TEST_PASSWORD } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';

// Prescriptions (issue 52): a draft prepared by anyone who prepares, signed only by a prescriber
// with rights standing, the checks again at signing with an override reason for each high alert,
// a controlled substance only with a DEA number and a fresh second factor; on her medication list
// once signed, off it once ended; renewed or changed, never edited; every step audited.

let t: TestApp;
let url: string;
let admin: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let scheduler: SignedIn;
let supplier: SignedIn;
const RIGHTS = { licenseNumber: 'MD-55120', licenseState: 'NY', npi: '1234567893', deaNumber: 'AB1234563' };

beforeAll(async () => {
  t = await buildTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signInAs(t, 'admin');
  nurse = await signInAs(t, 'nurse');
  scribe = await signInAs(t, 'scribe');
  scheduler = await signInAs(t, 'scheduler');
  supplier = await signInAs(t, 'supplier');
  expect((await admin.put(`/api/admin/prescribers/${admin.user.id}`, RIGHTS)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A starter formulary product by its ingredient, strength and form. */
async function drug(ingredient: string, strength: string, form = 'tablet'): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from formulary_items where ingredients = array[${ingredient}]::text[] and strength = ${strength} and dose_form = ${form}`,
  );
  if (!row) throw new Error(`no ${ingredient} ${strength} ${form} in the starter formulary`);
  return row.id;
}
const newPatient = async () => (await admin.post('/api/patients', patientInput())).json().id as string;
const TWICE_A_DAY = { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'bid', durationDays: 10 } as const;
const draftFor = (patientId: string, formularyId: string, extra: Record<string, unknown> = {}) => ({
  patientId,
  formularyId,
  sig: TWICE_A_DAY,
  quantity: 20,
  quantityUnit: 'tablet',
  ...extra,
});
const fieldsOf = (res: { json(): unknown }) => ((res.json() as { errors?: { path: string }[] }).errors ?? []).map((e) => e.path);
const countOf = async (patientId: string) =>
  (await t.db.select({ id: prescriptions.id }).from(prescriptions).where(eq(prescriptions.patientId, patientId))).length;
const medicationsOf = (patientId: string) => t.db.select().from(patientMedications).where(eq(patientMedications.patientId, patientId));
const audited = async (action: string, id: string) =>
  (
    await t.db
      .select()
      .from(auditEvents)
      .where(and(sql`${auditEvents.action} = ${action}`, eq(auditEvents.entityId, id), eq(auditEvents.outcome, 'allowed')))
  ).length;

describe('writing a prescription', () => {
  it('a scribe prepares a draft for a prescriber, who is asked to sign it; the sig reads as a sentence; only clinical staff read it', async () => {
    const patientId = await newPatient();
    const res = await scribe.post(
      '/api/prescriptions',
      draftFor(patientId, await drug('amoxicillin', '500 mg', 'capsule'), {
        quantityUnit: 'capsule',
        sig: { ...TWICE_A_DAY, doseUnit: 'capsule' },
        prescriberId: admin.user.id,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const rx = res.json() as TPrescription;
    expect(rx).toMatchObject({
      status: 'draft',
      medicationName: 'Amoxicillin 500 mg capsule',
      sigText: 'Take 1 capsule by mouth twice a day for 10 days.',
      daysSupply: 10,
      prescriberId: admin.user.id,
      preparedById: scribe.user.id,
    });
    expect(rx.number).toMatch(/^RX-\d{6}$/);
    // Her allergies were never recorded: said, not blocking.
    expect(rx.alerts.map((a) => [a.check, a.severity])).toEqual([['allergy-unknown', 'low']]);
    const asked = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.user.id), eq(notifications.entityId, rx.id)));
    expect(asked.map((n) => n.type)).toEqual(['prescription_to_sign']);
    expect(((await admin.get('/api/prescriptions?view=to_sign')).json() as TPrescription[]).map((p) => p.id)).toContain(rx.id);
    expect(((await scribe.get('/api/prescriptions?view=prepared')).json() as TPrescription[]).map((p) => p.id)).toContain(rx.id);
    expect((await nurse.get(`/api/prescriptions/${rx.id}`)).statusCode).toBe(200);
    for (const outsider of [scheduler, supplier]) {
      expect((await outsider.get('/api/prescriptions')).statusCode).toBe(403);
      expect((await outsider.get(`/api/prescriptions/${rx.id}`)).statusCode).toBe(403);
      expect((await outsider.post('/api/prescriptions', draftFor(patientId, rx.formularyId))).statusCode).toBe(403);
    }
    expect(await audited('prescription.create', rx.id)).toBe(1);
  });

  it('refuses bad input with a 400 naming the field or rule, and writes nothing', async () => {
    const patientId = await newPatient();
    const ibuprofen = await drug('ibuprofen', '400 mg');
    const oxycodone = await drug('oxycodone', '5 mg');
    const cases: [Record<string, unknown>, string][] = [
      [draftFor(patientId, '5d9b7a60-59f5-4e0f-9d0e-1b3c7f8a2c11'), 'formularyId'],
      [draftFor(patientId, ibuprofen, { quantity: 0 }), 'quantity'],
      [draftFor(patientId, ibuprofen, { quantity: -3 }), 'quantity'],
      // Two a day for more than a year.
      [draftFor(patientId, ibuprofen, { quantity: 1_000 }), 'quantity'],
      [draftFor(patientId, ibuprofen, { quantity: 200, refills: 3 }), 'quantity'],
      [draftFor(patientId, ibuprofen, { sig: { doseAmount: 1, doseUnit: 'tablet', route: 'oral' } }), 'sig.frequency'],
      [draftFor(patientId, oxycodone, { refills: 1 }), 'refills'],
      [draftFor(patientId, ibuprofen, { refills: 12 }), 'refills'],
      [draftFor(patientId, ibuprofen, { diagnosisId: '5d9b7a60-59f5-4e0f-9d0e-1b3c7f8a2c11' }), 'diagnosisId'],
      [draftFor(patientId, ibuprofen, { prescriberId: nurse.user.id }), 'prescriberId'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/prescriptions', body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(fieldsOf(res), res.body).toContain(field);
    }
    // A nurse who is no prescriber must name one.
    const unnamed = await nurse.post('/api/prescriptions', draftFor(patientId, ibuprofen));
    expect(unnamed.statusCode).toBe(400);
    expect(fieldsOf(unnamed)).toEqual(['prescriberId']);
    expect(await countOf(patientId)).toBe(0);
  });
});

describe('at a visit', () => {
  it('is counted on the visit for whoever sees it, a scheduler too, who reads none of them; a visit of another patient is refused', async () => {
    const patientId = await newPatient();
    const visit = await insertAppointment(t.db, scheduler.user.id, { patientId, status: 'in_progress' });
    const other = await insertAppointment(t.db, scheduler.user.id);
    const amoxicillin = await drug('amoxicillin', '500 mg', 'capsule');
    const body = draftFor(patientId, amoxicillin, { quantityUnit: 'capsule', sig: { ...TWICE_A_DAY, doseUnit: 'capsule' } });
    const refused = await nurse.post('/api/prescriptions', { ...body, appointmentId: other.id, prescriberId: admin.user.id });
    expect([refused.statusCode, fieldsOf(refused)]).toEqual([400, ['appointmentId']]);
    expect((await scheduler.get(`/api/appointments/${visit.id}`)).json().prescriptionCount).toBe(0);
    const rx = (await admin.post('/api/prescriptions', { ...body, appointmentId: visit.id })).json() as TPrescription;
    expect(rx.appointmentId).toBe(visit.id);
    expect((await scheduler.get(`/api/appointments/${visit.id}`)).json().prescriptionCount).toBe(1);
    expect((await scheduler.get(`/api/prescriptions?patientId=${patientId}`)).statusCode).toBe(403);
    // A discarded draft is no prescription of the visit.
    expect((await admin.put(`/api/prescriptions/${rx.id}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect((await scheduler.get(`/api/appointments/${visit.id}`)).json().prescriptionCount).toBe(0);
  });
});

describe('whom a writer names to sign', () => {
  it('lists the prescribers whose rights stand, by name, never their numbers; only for those who prepare', async () => {
    const res = await scribe.get('/api/prescriptions/prescribers');
    expect(res.statusCode).toBe(200);
    const mine = (res.json() as Record<string, unknown>[]).find((p) => p.userId === admin.user.id);
    expect(mine).toEqual({ userId: admin.user.id, name: expect.any(String), controlled: true });
    for (const outsider of [scheduler, supplier]) expect((await outsider.get('/api/prescriptions/prescribers')).statusCode).toBe(403);
  });
});

describe('signing', () => {
  it('only a prescriber with rights signs; signing puts it on her medication list and in her room, and it is never edited after', async () => {
    const patientId = await newPatient();
    const room = await admin.post('/api/chat/rooms', { patientId, name: 'Care' });
    expect(room.statusCode, room.body).toBe(201);
    const rx = (
      await nurse.post('/api/prescriptions', draftFor(patientId, await drug('ibuprofen', '400 mg'), { prescriberId: admin.user.id }))
    ).json() as TPrescription;
    expect((await scribe.post(`/api/prescriptions/${rx.id}/sign`, {})).statusCode).toBe(403);
    const noRights = await nurse.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect(noRights.statusCode).toBe(403);
    expect(noRights.json().code).toBe('prescription.noRights');

    const signed = await admin.post(`/api/prescriptions/${rx.id}/sign`, { updatedAt: rx.updatedAt });
    expect(signed.statusCode, signed.body).toBe(200);
    const after = signed.json() as TPrescription;
    expect(after).toMatchObject({ status: 'signed', prescriberId: admin.user.id });
    const [entry] = await medicationsOf(patientId);
    expect(entry).toMatchObject({
      id: after.medicationEntryId,
      formularyId: rx.formularyId,
      status: 'active',
      source: 'prescribed_here',
      frequency: 'twice a day',
      note: `Prescription ${rx.number}`,
    });
    const messages = (await admin.get(`/api/chat/rooms/${room.json().id}/messages`)).json() as { messageType: string; content: string }[];
    expect(messages.find((m) => m.messageType === 'prescription_update')?.content).toContain(`signed ${rx.number}`);
    const asked = await t.db.select().from(notifications).where(eq(notifications.entityId, rx.id));
    expect(asked.every((n) => !n.isActive)).toBe(true);

    const again = await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect(again.statusCode).toBe(409);
    const edit = await admin.put(`/api/prescriptions/${rx.id}`, { formularyId: rx.formularyId, sig: TWICE_A_DAY, quantity: 30, quantityUnit: 'tablet' });
    expect(edit.statusCode).toBe(409);
    expect((await medicationsOf(patientId)).length).toBe(1);
    expect(await audited('prescription.sign', rx.id)).toBe(1);
  });

  it('racing signatures sign once', async () => {
    const patientId = await newPatient();
    const rx = (await admin.post('/api/prescriptions', draftFor(patientId, await drug('ibuprofen', '400 mg')))).json() as TPrescription;
    // The same prescriber in a second tab (a session of her own).
    const second = Object.assign(new Client(t.app), { user: admin.user });
    expect((await second.post('/api/auth/login', { email: admin.user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const answers = await Promise.all([admin.post(`/api/prescriptions/${rx.id}/sign`, {}), second.post(`/api/prescriptions/${rx.id}/sign`, {})]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await medicationsOf(patientId)).length).toBe(1);
  });

  it('a high alert needs its reason: refused without it (nothing written), signed with it, the reason kept and audited', async () => {
    const patientId = await newPatient();
    const allergy = await nurse.post(`/api/patients/${patientId}/allergies`, {
      substance: { kind: 'class', code: 'penicillins' },
      category: 'medication',
      reactions: ['Hives'],
      criticality: 'high',
    });
    expect(allergy.statusCode, allergy.body).toBe(201);
    const amoxicillin = await drug('amoxicillin', '500 mg', 'capsule');
    const rx = (
      await admin.post('/api/prescriptions', draftFor(patientId, amoxicillin, { quantityUnit: 'capsule', sig: { ...TWICE_A_DAY, doseUnit: 'capsule' } }))
    ).json() as TPrescription;
    const high = rx.alerts.find((a) => a.severity === 'high')!;
    expect(high).toMatchObject({ check: 'allergy' });

    const refused = await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused)).toEqual(['overrides']);
    expect((await admin.get(`/api/prescriptions/${rx.id}`)).json().status).toBe('draft');
    expect(await medicationsOf(patientId)).toEqual([]);

    const reason = 'Tolerated a full course in 2024 under observation';
    const signed = await admin.post(`/api/prescriptions/${rx.id}/sign`, { overrides: [{ check: high.check, about: high.about, reason }] });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((signed.json() as TPrescription).alerts.find((a) => a.severity === 'high')?.override).toBe(reason);
    expect(await audited('prescription.override', rx.id)).toBe(1);
  });

  it('a controlled substance: refused without a fresh second factor, signed with one', async () => {
    const patientId = await newPatient();
    const rx = (
      await admin.post('/api/prescriptions', draftFor(patientId, await drug('oxycodone', '5 mg'), { quantity: 10, sig: { ...TWICE_A_DAY, durationDays: 5 } }))
    ).json() as TPrescription;
    expect(rx.schedule).toBe('II');
    const unproven = await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect(unproven.statusCode).toBe(403);
    expect(unproven.json().code).toBe('prescription.proofRequired');
    const setup = ZTotpSetup.parse((await admin.post('/api/auth/factors/totp', {})).json());
    await admin.post(`/api/auth/factors/totp/${setup.factorId}/confirm`, { code: totpCodeAt(setup.secret, t.clock.now()) });
    t.clock.advance(30_000);
    const wrong = await admin.post(`/api/prescriptions/${rx.id}/sign`, { proof: { method: 'totp', code: '000000' } });
    expect(wrong.statusCode).toBe(401);
    const signed = await admin.post(`/api/prescriptions/${rx.id}/sign`, { proof: { method: 'totp', code: totpCodeAt(setup.secret, t.clock.now()) } });
    expect(signed.statusCode, signed.body).toBe(200);
  });
});

describe('the printed prescription', () => {
  it('carries the prescriber, the patient, the quantity in words, the number and its check line; the first print makes it active, a reprint is a copy', async () => {
    const patientId = await newPatient();
    const rx = (await admin.post('/api/prescriptions', draftFor(patientId, await drug('ibuprofen', '400 mg'), { refills: 2 }))).json() as TPrescription;
    expect((await nurse.post(`/api/prescriptions/${rx.id}/print`)).statusCode).toBe(409);
    await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect((await scribe.post(`/api/prescriptions/${rx.id}/print`)).statusCode).toBe(403);
    const textOf = async (res: { rawPayload: Buffer }) =>
      (await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true })).text;

    const first = await nurse.post(`/api/prescriptions/${rx.id}/print`);
    expect(first.statusCode, first.body.slice(0, 200)).toBe(200);
    expect(first.headers['content-type']).toContain('application/pdf');
    const text = await textOf(first);
    for (const part of [
      rx.number,
      'NPI 1234567893',
      'License MD-55120 (NY)',
      'Ibuprofen 400 mg tablet',
      'Take 1 tablet by mouth twice a day for 10 days.',
      'Dispense: 20 tablets (twenty)',
      'Refills: 2 (two)',
      'Void after',
    ]) {
      expect(text).toContain(part);
    }
    // Not a controlled substance: no DEA number on the paper.
    expect(text).not.toContain('DEA');
    expect(text).toMatch(/Check [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/);
    expect(text).not.toContain('COPY');
    expect(((await admin.get(`/api/prescriptions/${rx.id}`)).json() as TPrescription).status).toBe('active');

    const again = await textOf(await nurse.post(`/api/prescriptions/${rx.id}/print`));
    expect(again).toContain('COPY 1');
    expect(again.match(/Check [0-9A-F-]+/)?.[0]).toBe(text.match(/Check [0-9A-F-]+/)?.[0]);
    expect(await audited('prescription.print', rx.id)).toBe(2);
  });
});

describe('the formulary for prescribing', () => {
  it('is searched by brand names as well as by name, and carries the dose ceilings of the labels', async () => {
    const found = (await nurse.get('/api/chart/formulary?q=lipito')).json() as { name: string }[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.name.startsWith('Atorvastatin'))).toBe(true);
    const [ceiling] = await queryRows<{ dose: number; unit: string }>(
      t.db,
      sql`select max_daily_dose as dose, max_daily_dose_unit as unit from formulary_items where name = 'Acetaminophen 500 mg tablet'`,
    );
    expect(ceiling).toEqual({ dose: 4000, unit: 'mg' });
  });
});

describe('the checks', () => {
  it('weigh her medication list: the same drug is a duplicate, warfarin with an NSAID an interaction, too much a day a high dose alert', async () => {
    const patientId = await newPatient();
    await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nkda' });
    const ibuprofen = await drug('ibuprofen', '400 mg');
    await nurse.post(`/api/patients/${patientId}/medications`, {
      medication: { formularyId: await drug('warfarin', '5 mg') },
      dose: '1 tablet',
      frequency: 'daily',
    });
    await nurse.post(`/api/patients/${patientId}/medications`, { medication: { name: 'Advil (ibuprofen) 200 mg' }, frequency: 'as needed' });
    const check = await nurse.post('/api/prescriptions/check', { patientId, formularyId: ibuprofen, sig: { ...TWICE_A_DAY, doseAmount: 3, frequency: 'qid' } });
    expect(check.statusCode, check.body).toBe(200);
    const alerts = (check.json() as { alerts: { check: string; severity: string }[] }).alerts;
    expect(alerts.map((a) => `${a.check}:${a.severity}`).sort()).toEqual(['dose:high', 'duplicate:moderate', 'interaction:moderate']);
    // The checks read her chart: a read of her record, audited.
    expect(await audited('prescription.check', patientId)).toBe(1);
    expect((await scheduler.post('/api/prescriptions/check', { patientId, formularyId: ibuprofen })).statusCode).toBe(403);
  });
});

describe('the life of a prescription', () => {
  it('is discontinued with a reason, which stops it on her list; a renewal is a new draft that completes the old when signed', async () => {
    const patientId = await newPatient();
    await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nka' });
    const lisinopril = await drug('lisinopril', '10 mg');
    const sign = async (id: string) => (await admin.post(`/api/prescriptions/${id}/sign`, {})).json() as TPrescription;
    const first = await sign(
      (
        (
          await admin.post('/api/prescriptions', draftFor(patientId, lisinopril, { sig: { ...TWICE_A_DAY, durationDays: null }, quantity: 60 }))
        ).json() as TPrescription
      ).id,
    );

    const renewal = await nurse.post(`/api/prescriptions/${first.id}/replace`, { kind: 'renewal' });
    expect(renewal.statusCode, renewal.body).toBe(201);
    const draft = renewal.json() as TPrescription;
    expect(draft).toMatchObject({ status: 'draft', replacesId: first.id, replaceKind: 'renewal', prescriberId: admin.user.id });
    // Renewing the same drug is no duplicate of the one it renews.
    expect(draft.alerts.filter((a) => a.check === 'duplicate')).toEqual([]);
    // So say the checks asked about the draft (the signing dialog's), though the one it renews is still in force.
    const checked = await admin.post('/api/prescriptions/check', { patientId, formularyId: lisinopril, sig: TWICE_A_DAY, excludeId: draft.id });
    expect((checked.json() as { alerts: { check: string }[] }).alerts.filter((a) => a.check === 'duplicate')).toEqual([]);
    const plain = await admin.post('/api/prescriptions/check', { patientId, formularyId: lisinopril, sig: TWICE_A_DAY });
    expect((plain.json() as { alerts: { check: string }[] }).alerts.map((a) => a.check)).toContain('duplicate');
    expect((await nurse.post(`/api/prescriptions/${first.id}/replace`, { kind: 'renewal' })).statusCode).toBe(409);
    const renewed = await sign(draft.id);
    expect(renewed.status).toBe('signed');
    const old = (await admin.get(`/api/prescriptions/${first.id}`)).json() as TPrescription;
    expect(old).toMatchObject({ status: 'completed', statusReason: `Renewed by ${renewed.number}` });
    const entries = await medicationsOf(patientId);
    expect(entries.find((e) => e.id === first.medicationEntryId)).toMatchObject({ status: 'stopped', stopReason: `Renewed by ${renewed.number}` });
    expect(entries.find((e) => e.id === renewed.medicationEntryId)?.status).toBe('active');

    const unexplained = await nurse.put(`/api/prescriptions/${renewed.id}/status`, { status: 'discontinued' });
    expect(unexplained.statusCode).toBe(400);
    expect(fieldsOf(unexplained)).toEqual(['reason']);
    expect((await scribe.put(`/api/prescriptions/${renewed.id}/status`, { status: 'discontinued', reason: 'Cough' })).statusCode).toBe(403);
    const stopped = await nurse.put(`/api/prescriptions/${renewed.id}/status`, { status: 'discontinued', reason: 'Dry cough' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect((await medicationsOf(patientId)).find((e) => e.id === renewed.medicationEntryId)).toMatchObject({ status: 'stopped', stopReason: 'Dry cough' });
    expect(await audited('prescription.discontinued', renewed.id)).toBe(1);
    // Nothing is deleted: every prescription is still there, with its history.
    expect(await countOf(patientId)).toBe(2);
  });

  it('a scribe discards only her own draft', async () => {
    const patientId = await newPatient();
    const ibuprofen = await drug('ibuprofen', '400 mg');
    const hers = (await scribe.post('/api/prescriptions', draftFor(patientId, ibuprofen, { prescriberId: admin.user.id }))).json() as TPrescription;
    const nurses = (await nurse.post('/api/prescriptions', draftFor(patientId, ibuprofen, { prescriberId: admin.user.id }))).json() as TPrescription;
    expect((await scribe.put(`/api/prescriptions/${nurses.id}/status`, { status: 'cancelled' })).statusCode).toBe(403);
    const discarded = await scribe.put(`/api/prescriptions/${hers.id}/status`, { status: 'cancelled' });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(discarded.json().status).toBe('cancelled');
    expect((await admin.post(`/api/prescriptions/${hers.id}/sign`, {})).statusCode).toBe(409);
  });
});

describe('live', () => {
  it('tells the open screens of those who read prescriptions of each change, ids only; never a scheduler or a supplier', async () => {
    const [reader, scheduling, outsider] = await Promise.all([
      openLive(url, { cookie: nurse.cookie }),
      openLive(url, { cookie: scheduler.cookie }),
      openLive(url, { cookie: supplier.cookie }),
    ]);
    try {
      const patientId = await newPatient();
      const rx = (
        await scribe.post(
          '/api/prescriptions',
          draftFor(patientId, await drug('amoxicillin', '500 mg', 'capsule'), {
            quantityUnit: 'capsule',
            sig: { ...TWICE_A_DAY, doseUnit: 'capsule' },
            prescriberId: admin.user.id,
          }),
        )
      ).json() as TPrescription;
      const changed = (await reader.next((m) => m.type === 'prescription_changed')) as Extract<TServerMessage, { type: 'prescription_changed' }>;
      expect(changed).toEqual({ type: 'prescription_changed', eventId: expect.any(Number), prescriptionId: rx.id });
      expect((await admin.post(`/api/prescriptions/${rx.id}/sign`, {})).statusCode).toBe(200);
      await reader.next((m) => m.type === 'prescription_changed' && m.prescriptionId === rx.id && m.eventId > changed.eventId);
      expect([...scheduling.messages, ...outsider.messages].filter((m) => m.type === 'prescription_changed')).toEqual([]);
    } finally {
      for (const socket of [reader, scheduling, outsider]) socket.close();
    }
  });
});
