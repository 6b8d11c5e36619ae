import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deaValid, npiValid, type TPrescriber } from '#domain/prescriptions';
import { auditEvents, users } from '../../server/db/schema/auth.ts';
import { prescriberRights } from '../../server/db/schema/prescriptions.ts';
import { createUser } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Who may sign a prescription (issue 52): an admin grants prescribing rights to an active admin
// or nurse, with license, NPI and DEA number checked; changes and revokes them, audited.

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAs(t, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const RIGHTS = { licenseNumber: 'NP-204518', licenseState: 'ny', npi: '1234567893', deaNumber: 'mb1234563' };
const fieldsOf = (res: { json(): unknown }) =>
  Object.fromEntries(((res.json() as { errors?: { path: string; message: string }[] }).errors ?? []).map((e) => [e.path, e.message]));
const audited = async (action: 'prescriber.grant' | 'prescriber.update' | 'prescriber.revoke', userId: string) =>
  (
    await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, userId)))
  ).length;

describe('the credentials', () => {
  it.each([
    ['1234567893', true],
    ['1245319599', true],
    ['1234567890', false],
    ['123456789', false],
    ['12345678930', false],
  ])('NPI %s is valid: %s (Luhn over 80840 and the nine digits)', (npi, valid) => {
    expect(npiValid(npi)).toBe(valid);
  });
  it.each([
    ['AB1234563', true],
    ['M91234563', true],
    ['AB1234564', false],
    ['A11234563', false],
    ['AB123456', false],
  ])('DEA number %s is valid: %s', (dea, valid) => {
    expect(deaValid(dea)).toBe(valid);
  });
});

describe('prescribing rights', () => {
  it('are granted to a nurse, listed with who granted them, changed, revoked and granted again, each step audited', async () => {
    const nurse = await createUser(t.db, { role: 'nurse' });
    const granted = await admin.put(`/api/admin/prescribers/${nurse.id}`, RIGHTS);
    expect(granted.statusCode, granted.body).toBe(200);
    const rights = granted.json() as TPrescriber;
    expect(rights).toMatchObject({ userId: nurse.id, licenseState: 'NY', npi: '1234567893', deaNumber: 'MB1234563', revokedAt: null, role: 'nurse' });
    expect(rights.grantedByName).toBe(`${admin.user.firstName} ${admin.user.lastName}`);
    expect(((await admin.get('/api/admin/prescribers')).json() as TPrescriber[]).map((p) => p.userId)).toContain(nurse.id);

    const changed = await admin.put(`/api/admin/prescribers/${nurse.id}`, { ...RIGHTS, deaNumber: null, updatedAt: rights.updatedAt });
    expect(changed.json()).toMatchObject({ deaNumber: null, grantedAt: rights.grantedAt });
    const late = await admin.put(`/api/admin/prescribers/${nurse.id}`, { ...RIGHTS, updatedAt: rights.updatedAt });
    expect([late.statusCode, late.json().code]).toEqual([409, 'record.stale']);

    const revoked = await admin.post(`/api/admin/prescribers/${nurse.id}/revoke`);
    expect(revoked.json().revokedAt).not.toBeNull();
    expect((await admin.post(`/api/admin/prescribers/${nurse.id}/revoke`)).statusCode).toBe(404);
    const again = await admin.put(`/api/admin/prescribers/${nurse.id}`, RIGHTS);
    expect(again.json()).toMatchObject({ revokedAt: null });
    expect([await audited('prescriber.grant', nurse.id), await audited('prescriber.update', nurse.id), await audited('prescriber.revoke', nurse.id)]).toEqual([
      2, 1, 1,
    ]);
  });

  it.each([
    ['an NPI with a wrong check digit', { npi: '1234567890' }, 'npi'],
    ['a DEA number with a wrong check digit', { deaNumber: 'AB1234564' }, 'deaNumber'],
    ['a state that is none', { licenseState: 'XX' }, 'licenseState'],
    ['no license number', { licenseNumber: '  ' }, 'licenseNumber'],
  ])('refuses %s with a 400 naming the field, and grants nothing', async (_case, change, field) => {
    const nurse = await createUser(t.db, { role: 'nurse' });
    const res = await admin.put(`/api/admin/prescribers/${nurse.id}`, { ...RIGHTS, ...change });
    expect([res.statusCode, Object.keys(fieldsOf(res))]).toEqual([400, [field]]);
    expect(await t.db.select().from(prescriberRights).where(eq(prescriberRights.userId, nurse.id))).toEqual([]);
  });

  it('are refused to a role that does not prescribe, to a deactivated account and to nobody', async () => {
    const scribe = await createUser(t.db, { role: 'scribe' });
    const res = await admin.put(`/api/admin/prescribers/${scribe.id}`, RIGHTS);
    expect([res.statusCode, fieldsOf(res)]).toEqual([400, { userId: 'Only an admin or a nurse (a nurse practitioner) may hold prescribing rights' }]);
    const gone = await createUser(t.db, { role: 'nurse' });
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, gone.id));
    expect((await admin.put(`/api/admin/prescribers/${gone.id}`, RIGHTS)).statusCode).toBe(409);
    expect((await admin.put('/api/admin/prescribers/00000000-0000-4000-8000-000000000000', RIGHTS)).statusCode).toBe(404);
  });
});
