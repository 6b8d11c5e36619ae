import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TConditionCode } from '#domain/condition-codes';
import { formularyName, type TFormularyItem } from '#domain/formulary';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { rowsOf } from '../../server/db/typed-rows.ts';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The admin's editor of the formulary and the problem list's codes (issue 51, item 8): items
// added, rewritten and retired, never deleted; what the pickers offer follows at once.

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

/** An ingredient no other test names, so searches find only this test's items. */
const uniqueIngredient = () => `testamycin ${randomBytes(3).toString('hex')}`;
const newItem = (ingredient = uniqueIngredient()) => ({
  ingredients: [ingredient],
  strength: '250 mg',
  doseForm: 'tablet',
  route: 'oral',
  rxcui: null,
  atc: 'J01XX99',
  schedule: null,
});
const fieldsOf = (res: { json(): unknown }) =>
  Object.fromEntries(((res.json() as { errors?: { path: string; message: string }[] }).errors ?? []).map((e) => [e.path, e.message]));
const itemCount = async () => (await rowsOf(t.db, z.object({ n: z.number() }), sql`select count(*)::int as n from formulary_items`))[0]!.n;
const auditOf = (action: 'formulary.create' | 'formulary.update' | 'formulary.code_create' | 'formulary.code_update', entityId: string) =>
  t.db
    .select({ actorId: auditEvents.actorId })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, entityId)));
const picker = async (q: string) => (await nurse.get(`/api/chart/formulary?q=${encodeURIComponent(q)}`)).json() as { id: string; name: string }[];

describe('the formulary editor', () => {
  it('lists the formulary by name a page at a time, with the total first, and finds a name, an RxNorm code or an ATC code', async () => {
    const first = await admin.get('/api/admin/formulary?limit=100');
    expect(first.statusCode).toBe(200);
    const total = Number(first.headers['x-total-count']);
    expect(total).toBeGreaterThan(300);
    const names: string[] = [];
    let cursor = first.headers['x-next-cursor'] as string | undefined;
    names.push(...(first.json() as TFormularyItem[]).map((i) => i.name));
    while (cursor) {
      const next = await admin.get(`/api/admin/formulary?limit=100&cursor=${cursor}`);
      expect(next.headers['x-total-count']).toBeUndefined();
      names.push(...(next.json() as TFormularyItem[]).map((i) => i.name));
      cursor = next.headers['x-next-cursor'] as string | undefined;
    }
    expect(names).toHaveLength(total);
    expect(new Set(names).size).toBe(total);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));

    const byName = (await admin.get('/api/admin/formulary?q=lisinopril 10')).json() as TFormularyItem[];
    expect(byName.map((i) => i.name)).toContain('Lisinopril 10 mg tablet');
    expect(((await admin.get('/api/admin/formulary?q=314076')).json() as TFormularyItem[]).map((i) => i.name)).toEqual(['Lisinopril 10 mg tablet']);
    const penicillins = (await admin.get('/api/admin/formulary?q=j01c&limit=200')).json() as TFormularyItem[];
    expect(penicillins.length).toBeGreaterThan(3);
    expect(penicillins.every((i) => i.atc?.startsWith('J01C'))).toBe(true);
  });

  it("adds the clinic's own item, named from its parts, audited, and offered by the pickers at once", async () => {
    const ingredient = uniqueIngredient();
    const res = await admin.post('/api/admin/formulary', { ...newItem(ingredient), ingredients: [`  ${ingredient.toUpperCase()} `], atc: 'j01xx99' });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json() as TFormularyItem;
    expect(item).toMatchObject({
      name: formularyName({ ingredients: [ingredient], strength: '250 mg', doseForm: 'tablet' }),
      ingredients: [ingredient],
      atc: 'J01XX99',
    });
    expect(item).toMatchObject({ source: 'clinic', isActive: true, route: 'oral', schedule: null });
    expect(await auditOf('formulary.create', item.id)).toHaveLength(1);
    expect((await picker(ingredient)).map((i) => i.id)).toEqual([item.id]);
    const substances = (await nurse.get(`/api/chart/substances?q=${encodeURIComponent(ingredient)}`)).json() as { kind: string; code: string }[];
    expect(substances).toContainEqual(expect.objectContaining({ kind: 'ingredient', code: ingredient }));
  });

  it.each([
    ['no ingredient', { ingredients: [] }, 'ingredients'],
    ['an ingredient twice', { ingredients: ['aspirin', 'Aspirin'] }, 'ingredients'],
    ['a blank ingredient', { ingredients: ['  '] }, 'ingredients.0'],
    ['an RxNorm code with letters', { rxcui: 'RX123' }, 'rxcui'],
    ['an ATC code that is not one', { atc: 'J1' }, 'atc'],
    ['schedule I', { schedule: 'I' }, 'schedule'],
    ['an unknown route', { route: 'mouth' }, 'route'],
    ['a field it does not know', { price: 3 }, 'price'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_case, change, field) => {
    const before = await itemCount();
    const res = await admin.post('/api/admin/formulary', { ...newItem(), ...change });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(fieldsOf(res))).toEqual([field]);
    expect(await itemCount()).toBe(before);
  });

  it('refuses a name or an RxNorm code another item holds (409), in any case', async () => {
    const before = await itemCount();
    const same = await admin.post('/api/admin/formulary', { ingredients: ['LISINOPRIL'], strength: '10 mg', doseForm: 'TABLET', route: 'oral' });
    expect([same.statusCode, same.json().code]).toEqual([409, 'record.conflict']);
    const rxcui = await admin.post('/api/admin/formulary', { ...newItem(), rxcui: '314076' });
    expect([rxcui.statusCode, rxcui.json().message]).toEqual([409, "RxNorm code 314076 is already another item's"]);
    expect(await itemCount()).toBe(before);
  });

  it("makes a rewritten shipped item the clinic's, keeps a retired one's source, and refuses a save over another's change", async () => {
    const [amlodipine] = (await admin.get('/api/admin/formulary?q=amlodipine 5 mg')).json() as TFormularyItem[];
    expect(amlodipine).toMatchObject({ source: 'starter', isActive: true });
    const { id, name: _name, source: _source, updatedAt, ...fields } = amlodipine!;
    const retired = await admin.put(`/api/admin/formulary/${id}`, { ...fields, isActive: false, updatedAt });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json()).toMatchObject({ source: 'starter', isActive: false });
    expect(await picker('amlodipine 5 mg')).toEqual([]);
    expect(((await admin.get('/api/admin/formulary?q=amlodipine 5 mg&status=retired')).json() as TFormularyItem[]).map((i) => i.id)).toEqual([id]);

    const late = await admin.put(`/api/admin/formulary/${id}`, { ...fields, isActive: true, updatedAt });
    expect([late.statusCode, late.json().code]).toEqual([409, 'record.stale']);

    const rewritten = await admin.put(`/api/admin/formulary/${id}`, { ...fields, strength: '5 mg (as besylate)', isActive: true });
    expect(rewritten.json()).toMatchObject({ name: 'Amlodipine 5 mg (as besylate) tablet', source: 'clinic', isActive: true });
    expect(await auditOf('formulary.update', id)).toHaveLength(2);
  });

  it('keeps a retired item on the medications that name it, and refuses it for a new one', async () => {
    const item = (await admin.post('/api/admin/formulary', newItem())).json() as TFormularyItem;
    const patient = await insertPatient(t.db);
    const taken = await nurse.post(`/api/patients/${patient.id}/medications`, { medication: { formularyId: item.id }, frequency: 'daily' });
    expect(taken.statusCode, taken.body).toBe(201);
    const { id: _id, name: _name, source: _source, updatedAt: _at, ...fields } = item;
    expect((await admin.put(`/api/admin/formulary/${item.id}`, { ...fields, isActive: false })).statusCode).toBe(200);
    const chart = (await nurse.get(`/api/patients/${patient.id}/chart`)).json() as { medications: { medication: { formularyId: string; name: string } }[] };
    expect(chart.medications.map((m) => m.medication)).toEqual([{ formularyId: item.id, name: item.name }]);
    const again = await nurse.post(`/api/patients/${patient.id}/medications`, { medication: { formularyId: item.id }, frequency: 'daily' });
    expect([again.statusCode, Object.keys(fieldsOf(again))]).toEqual([400, ['medication.formularyId']]);
  });

  it('answers 404 for an item that is not there', async () => {
    const res = await admin.put('/api/admin/formulary/00000000-0000-4000-8000-000000000000', newItem());
    expect(res.statusCode).toBe(404);
  });
});

describe('the condition codes editor', () => {
  const conditions = async (q: string) =>
    ((await nurse.get(`/api/chart/conditions?q=${encodeURIComponent(q)}`)).json() as { code: string }[]).map((c) => c.code);

  it('lists the codes in order, finds a code or a title, and adds one the starter list lacks', async () => {
    const first = (await admin.get('/api/admin/condition-codes?limit=5')).json() as TConditionCode[];
    expect(first.map((c) => c.code)).toEqual([...first.map((c) => c.code)].sort());
    expect(((await admin.get('/api/admin/condition-codes?q=e11')).json() as TConditionCode[]).every((c) => c.code.startsWith('E11'))).toBe(true);

    const res = await admin.post('/api/admin/condition-codes', { code: ' q87.40 ', title: 'Marfan syndrome, unspecified' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ code: 'Q87.40', title: 'Marfan syndrome, unspecified', source: 'clinic', isActive: true });
    expect(await auditOf('formulary.code_create', 'Q87.40')).toHaveLength(1);
    expect(await conditions('marfan')).toEqual(['Q87.40']);

    const again = await admin.post('/api/admin/condition-codes', { code: 'Q87.40', title: 'Again' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'record.conflict']);
    const renamed = await admin.put('/api/admin/condition-codes/q87.40', { title: 'Marfan syndrome' });
    expect(renamed.json()).toMatchObject({ code: 'Q87.40', title: 'Marfan syndrome' });
  });

  it.each([
    ['a code in no ICD-10-CM shape', { code: 'HTN', title: 'Hypertension' }, 'code'],
    ['a code with a long tail', { code: 'E11.12345', title: 'Diabetes' }, 'code'],
    ['no title', { code: 'Q87.41' }, 'title'],
  ])('refuses %s with a 400 naming the field', async (_case, body, field) => {
    const res = await admin.post('/api/admin/condition-codes', body);
    expect([res.statusCode, Object.keys(fieldsOf(res))]).toEqual([400, [field]]);
  });

  it("retires and restores a shipped code, which keeps ICD-10-CM's title", async () => {
    expect(await conditions('I10')).toContain('I10');
    const retired = await admin.put('/api/admin/condition-codes/I10', { isActive: false });
    expect(retired.json()).toMatchObject({ code: 'I10', source: 'icd10cm', isActive: false });
    expect(await conditions('I10')).not.toContain('I10');
    const renamed = await admin.put('/api/admin/condition-codes/I10', { title: 'High blood pressure' });
    expect([renamed.statusCode, Object.keys(fieldsOf(renamed))]).toEqual([400, ['title']]);
    const restored = await admin.put('/api/admin/condition-codes/I10', { isActive: true, updatedAt: retired.json().updatedAt });
    expect(restored.json()).toMatchObject({ isActive: true, title: retired.json().title });
    expect(await auditOf('formulary.code_update', 'I10')).toHaveLength(2);
    expect((await admin.put('/api/admin/condition-codes/Z99.999', { isActive: false })).statusCode).toBe(404);
  });
});
