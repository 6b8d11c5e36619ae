import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TInteractionPair, TInteractionPairs } from '#domain/interaction-pairs';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { clinicInteractionPairs } from '../../server/db/schema/prescriptions.ts';
import { rowsOf } from '../../server/db/typed-rows.ts';
import { patientInput } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The clinic's own interaction pairs (issue 52): an admin adds a pair of two groups of the
// formulary's ingredients; every check of a prescription weighs it beside the shipped pairs, in
// either order, with the alert's source 'clinic'; retired, it raises nothing; never deleted; every
// change audited; bad input a 400 naming the field, with nothing written.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'nurse')]);
});
afterAll(async () => {
  await t?.close();
});

const SEROTONIN = {
  nameA: 'Sertraline',
  ingredientsA: ['sertraline'],
  nameB: 'Tramadol',
  ingredientsB: ['tramadol'],
  severity: 'high',
  effect: 'Serotonin syndrome',
};
const fieldsOf = (res: { json(): unknown }) => ((res.json() as { errors?: { path: string }[] }).errors ?? []).map((e) => e.path);
const pairCount = async () => (await rowsOf(t.db, z.object({ n: z.number() }), sql`select count(*)::int as n from clinic_interaction_pairs`))[0]!.n;
const stored = async (id: string) => (await t.db.select().from(clinicInteractionPairs).where(eq(clinicInteractionPairs.id, id)))[0];
const audited = async (action: 'interaction.create' | 'interaction.update', id: string) =>
  (
    await t.db
      .select({ actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(and(sql`${auditEvents.action} = ${action}`, eq(auditEvents.entityId, id), eq(auditEvents.outcome, 'allowed')))
  ).map((r) => r.actorId);

/** A starter formulary tablet by its one ingredient and strength. */
async function drug(ingredient: string, strength: string): Promise<string> {
  const [row] = await rowsOf(
    t.db,
    z.object({ id: z.string() }),
    sql`select id from formulary_items where ingredients = array[${ingredient}]::text[] and strength = ${strength} and dose_form = 'tablet'`,
  );
  if (!row) throw new Error(`no ${ingredient} ${strength} tablet in the starter formulary`);
  return row.id;
}

/** A new patient who takes `takes` (on her medication list), with no known drug allergies. */
async function patientTaking(takes: string): Promise<string> {
  const patientId = (await admin.post('/api/patients', patientInput())).json().id as string;
  await admin.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nkda' });
  const entry = await admin.post(`/api/patients/${patientId}/medications`, { medication: { formularyId: takes }, dose: '1 tablet', frequency: 'daily' });
  expect(entry.statusCode, entry.body).toBe(201);
  return patientId;
}

type TAlert = { check: string; severity: string; reason: string; about: string | null; source: string };
async function interactionAlerts(patientId: string, formularyId: string): Promise<TAlert[]> {
  const res = await admin.post('/api/prescriptions/check', { patientId, formularyId });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { alerts: TAlert[] }).alerts.filter((a) => a.check === 'interaction');
}

describe("the clinic's interaction pairs", () => {
  it('an admin adds one; every check weighs it, in either order, as the clinic’s, with its severity; audited', async () => {
    const [sertraline, tramadol] = await Promise.all([drug('sertraline', '50 mg'), drug('tramadol', '50 mg')]);
    const onSertraline = await patientTaking(sertraline);
    const onTramadol = await patientTaking(tramadol);
    // Not a pair the app ships.
    expect(await interactionAlerts(onSertraline, tramadol)).toEqual([]);

    const res = await admin.post('/api/admin/interaction-pairs', { ...SEROTONIN, ingredientsA: ['  Sertraline '] });
    expect(res.statusCode, res.body).toBe(201);
    const pair = res.json() as TInteractionPair;
    expect(pair).toMatchObject({ ...SEROTONIN, isActive: true });
    expect(await stored(pair.id)).toMatchObject({ ...SEROTONIN, isActive: true, createdById: admin.user.id });
    expect(await audited('interaction.create', pair.id)).toEqual([admin.user.id]);

    const list = (await admin.get('/api/admin/interaction-pairs')).json() as TInteractionPairs;
    expect(list.clinic.map((p) => p.id)).toContain(pair.id);
    expect(list.shipped.filter((p) => p.source === 'onc-2012')).toHaveLength(15);
    expect(list.shipped.find((p) => p.nameA === 'warfarin' || p.ingredientsA.includes('warfarin'))).toMatchObject({ severity: 'moderate', source: 'clinic' });

    for (const [patientId, prescribed] of [
      [onSertraline, tramadol],
      [onTramadol, sertraline],
    ] as const) {
      const alerts = await interactionAlerts(patientId, prescribed);
      expect(alerts).toEqual([expect.objectContaining({ severity: 'high', source: 'clinic', reason: expect.stringContaining('Serotonin syndrome') })]);
      expect(alerts[0]!.reason).toContain('Sertraline with Tramadol');
    }
    // Written and signed, the same: the draft keeps the alert, and signing over it asks a reason.
    const RIGHTS = { licenseNumber: 'MD-55120', licenseState: 'NY', npi: '1234567893' };
    expect((await admin.put(`/api/admin/prescribers/${admin.user.id}`, RIGHTS)).statusCode).toBe(200);
    const draft = await admin.post('/api/prescriptions', {
      patientId: onTramadol,
      formularyId: sertraline,
      sig: { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'daily', durationDays: 30 },
      quantity: 30,
      quantityUnit: 'tablet',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const rx = draft.json() as { id: string; alerts: TAlert[] };
    const alert = rx.alerts.find((a) => a.check === 'interaction')!;
    expect(alert).toMatchObject({ severity: 'high', source: 'clinic' });
    const unanswered = await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
    expect(unanswered.statusCode).toBe(400);
    expect(fieldsOf(unanswered)).toEqual(['overrides']);
    const signed = await admin.post(`/api/prescriptions/${rx.id}/sign`, {
      overrides: [{ check: 'interaction', about: alert.about, reason: 'Low dose, reviewed with her psychiatrist' }],
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((signed.json() as { alerts: (TAlert & { override: string | null })[] }).alerts.find((a) => a.check === 'interaction')).toMatchObject({
      source: 'clinic',
      override: 'Low dose, reviewed with her psychiatrist',
    });
  });

  it('retired, it raises nothing; restored, it does again; edited, its new severity and effect hold; a stale save is refused', async () => {
    const [sertraline, tramadol] = await Promise.all([drug('sertraline', '100 mg'), drug('tramadol', '50 mg')]);
    const patientId = await patientTaking(sertraline);
    const pair = (
      await admin.post('/api/admin/interaction-pairs', { ...SEROTONIN, nameA: 'SSRIs', ingredientsA: ['sertraline', 'fluoxetine'] })
    ).json() as TInteractionPair;
    const ours = (alerts: TAlert[]) => alerts.filter((a) => a.reason.includes('SSRIs'));
    expect(ours(await interactionAlerts(patientId, tramadol))).toHaveLength(1);

    const retired = await admin.put(`/api/admin/interaction-pairs/${pair.id}`, { isActive: false, updatedAt: pair.updatedAt });
    expect(retired.statusCode, retired.body).toBe(200);
    const retiredPair = retired.json() as TInteractionPair;
    expect(retiredPair).toMatchObject({ ...pair, isActive: false, updatedAt: expect.any(String) });
    expect(retiredPair.updatedAt > pair.updatedAt).toBe(true);
    expect(ours(await interactionAlerts(patientId, tramadol))).toEqual([]);
    // Retired pairs are still listed, after the active ones.
    const list = (await admin.get('/api/admin/interaction-pairs')).json() as TInteractionPairs;
    const at = list.clinic.findIndex((p) => p.id === pair.id);
    expect(list.clinic[at]!.isActive).toBe(false);
    expect(list.clinic.slice(at).every((p) => !p.isActive)).toBe(true);

    // Saved over the version read before the retirement: someone else changed it.
    const staleSave = await admin.put(`/api/admin/interaction-pairs/${pair.id}`, { isActive: true, updatedAt: pair.updatedAt });
    expect(staleSave.statusCode).toBe(409);
    expect(staleSave.json().code).toBe('record.stale');
    expect((await stored(pair.id))!.isActive).toBe(false);

    const restored = (
      await admin.put(`/api/admin/interaction-pairs/${pair.id}`, { isActive: true, updatedAt: retiredPair.updatedAt })
    ).json() as TInteractionPair;
    expect(restored.isActive).toBe(true);
    expect(ours(await interactionAlerts(patientId, tramadol))).toEqual([expect.objectContaining({ severity: 'high', source: 'clinic' })]);

    const edited = await admin.put(`/api/admin/interaction-pairs/${pair.id}`, {
      ...SEROTONIN,
      nameA: 'SSRIs',
      ingredientsA: ['sertraline', 'fluoxetine', 'citalopram'],
      severity: 'moderate',
      effect: 'Serotonin toxicity: watch for agitation and tremor.',
      updatedAt: restored.updatedAt,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await stored(pair.id)).toMatchObject({ severity: 'moderate', ingredientsA: ['sertraline', 'fluoxetine', 'citalopram'] });
    expect(ours(await interactionAlerts(patientId, tramadol))).toEqual([
      expect.objectContaining({ severity: 'moderate', source: 'clinic', reason: expect.stringContaining('watch for agitation') }),
    ]);
    // The same again changes nothing, and writes nothing.
    const unchanged = await admin.put(`/api/admin/interaction-pairs/${pair.id}`, { severity: 'moderate' });
    expect(unchanged.json().updatedAt).toBe((edited.json() as TInteractionPair).updatedAt);
    expect(await audited('interaction.update', pair.id)).toEqual([admin.user.id, admin.user.id, admin.user.id]);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const before = await pairCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...SEROTONIN, ingredientsA: ['sertraline', 'sertralinne'] }, 'ingredientsA.1'],
      [{ ...SEROTONIN, ingredientsB: [] }, 'ingredientsB'],
      [{ ...SEROTONIN, ingredientsB: 'tramadol' }, 'ingredientsB'],
      [{ ...SEROTONIN, ingredientsA: ['sertraline', 'Sertraline'] }, 'ingredientsA'],
      [{ ...SEROTONIN, ingredientsA: Array.from({ length: 51 }, (_, i) => `drug ${i}`) }, 'ingredientsA'],
      [{ ...SEROTONIN, ingredientsA: [''] }, 'ingredientsA.0'],
      [{ ...SEROTONIN, severity: 'severe' }, 'severity'],
      [{ ...SEROTONIN, severity: undefined }, 'severity'],
      [{ ...SEROTONIN, nameA: ' ' }, 'nameA'],
      [{ ...SEROTONIN, nameB: 'x'.repeat(81) }, 'nameB'],
      [{ ...SEROTONIN, effect: undefined }, 'effect'],
      [{ ...SEROTONIN, effect: 'x'.repeat(301) }, 'effect'],
      [{ ...SEROTONIN, isActive: 'yes' }, 'isActive'],
      [{ ...SEROTONIN, source: 'onc-2012' }, 'source'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/admin/interaction-pairs', body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(fieldsOf(res), res.body).toContain(field);
    }
    // Every unknown ingredient is named, on both sides.
    const both = await admin.post('/api/admin/interaction-pairs', { ...SEROTONIN, ingredientsA: ['sertralin'], ingredientsB: ['tramadol', 'not a drug'] });
    expect(fieldsOf(both)).toEqual(['ingredientsA.0', 'ingredientsB.1']);
    expect(both.json().errors[0].message).toContain("'sertralin'");
    expect(await pairCount()).toBe(before);

    const pair = (await admin.post('/api/admin/interaction-pairs', SEROTONIN)).json() as TInteractionPair;
    const changes: [Record<string, unknown>, string][] = [
      [{ ingredientsB: ['tramadol', 'tramadoll'] }, 'ingredientsB.1'],
      [{ ingredientsA: [] }, 'ingredientsA'],
      [{ severity: 'low' }, 'severity'],
      [{ effect: '' }, 'effect'],
      [{ source: 'clinic' }, 'source'],
    ];
    for (const [body, field] of changes) {
      const res = await admin.put(`/api/admin/interaction-pairs/${pair.id}`, body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(fieldsOf(res), res.body).toContain(field);
    }
    expect((await stored(pair.id))!.updatedAt.toISOString()).toBe(pair.updatedAt);
    expect(await audited('interaction.update', pair.id)).toEqual([]);
    expect((await admin.put('/api/admin/interaction-pairs/5d9b7a60-59f5-4e0f-9d0e-1b3c7f8a2c11', { isActive: false })).statusCode).toBe(404);
    expect(fieldsOf(await admin.put('/api/admin/interaction-pairs/not-an-id', { isActive: false }))).toEqual(['id']);
  });

  it('is the admin’s: a nurse gets 403 and writes nothing, a visitor 401', async () => {
    const pair = (await admin.post('/api/admin/interaction-pairs', SEROTONIN)).json() as TInteractionPair;
    const before = await pairCount();
    expect((await nurse.get('/api/admin/interaction-pairs')).statusCode).toBe(403);
    expect((await nurse.post('/api/admin/interaction-pairs', SEROTONIN)).statusCode).toBe(403);
    expect((await nurse.put(`/api/admin/interaction-pairs/${pair.id}`, { isActive: false })).statusCode).toBe(403);
    expect((await anonymous(t).get('/api/admin/interaction-pairs')).statusCode).toBe(401);
    expect((await anonymous(t).post('/api/admin/interaction-pairs', SEROTONIN)).statusCode).toBe(401);
    expect(await pairCount()).toBe(before);
    expect((await stored(pair.id))!.isActive).toBe(true);
    // The refusal is in the trail too.
    const refused = await t.db
      .select({ outcome: auditEvents.outcome })
      .from(auditEvents)
      .where(and(sql`${auditEvents.action} = 'interaction.update'`, eq(auditEvents.actorId, nurse.user.id)));
    expect(refused.map((r) => r.outcome)).toEqual(['forbidden']);
  });

  it('the database itself holds each side non-empty and the severity to high or moderate', async () => {
    const row = { ...SEROTONIN, severity: 'high' as const, createdById: admin.user.id };
    await expect(t.db.insert(clinicInteractionPairs).values({ ...row, ingredientsA: [] })).rejects.toThrow();
    await expect(t.db.insert(clinicInteractionPairs).values({ ...row, ingredientsB: [] })).rejects.toThrow();
    await expect(t.db.insert(clinicInteractionPairs).values({ ...row, severity: 'low' as 'high' })).rejects.toThrow();
  });
});
