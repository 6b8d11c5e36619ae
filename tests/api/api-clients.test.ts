import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { queryRows } from '../../server/db/database.ts';
import { apiClients, apiTokens } from '../../server/db/schema/api-clients.ts';
import { users } from '../../server/db/schema/auth.ts';
import { patientNotes, patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { totpCodeAt } from '../../server/modules/auth/totp.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { createUser, insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Other software reading the FHIR API (issue 35): an admin creates a client acting as a staff
// account, the client trades its secret for a bearer token, and the token reads exactly what
// that account reads in the app, within the client's scopes, until it is revoked.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let patientId: string;
let ownNote: string;
let othersNote: string;

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
async function token(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = form({ grant_type: 'client_credentials', ...fields });
  return t.app.inject({ method: 'POST', url: '/api/oauth/token', payload: body.payload, headers: { ...body.headers, ...headers } });
}
const bearer = (accessToken: string, path: string) =>
  t.app.inject({ method: 'GET', url: `/fhir/R4/${path}`, headers: { authorization: `Bearer ${accessToken}` } });
/** A client an admin made to read as `acting`, accepted by her (issue 47: until then it gets no token). */
async function client(scopes: string[], acting: SignedIn = nurse) {
  const created = await createClient(scopes, acting.user.id);
  const accepted = await acting.post(`/api/auth/api-clients/${created.id}/accept`, {});
  expect(accepted.statusCode, accepted.body).toBe(200);
  return created;
}
async function createClient(scopes: string[], actingUserId: string) {
  const res = await admin.post('/api/admin/api-clients', { name: 'Patient portal', actingUserId, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; clientSecret: string };
}
async function accessToken(c: { id: string; clientSecret: string }, scope?: string) {
  const res = await token({ client_id: c.id, client_secret: c.clientSecret, ...(scope ? { scope } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  const other = await createUser(t.db, { role: 'nurse' });
  patientId = (await insertPatient(t.db)).id;
  // Her chart's allergy (issue 51): an AllergyIntolerance of her record.
  const allergy = await nurse.post(`/api/patients/${patientId}/allergies`, { substance: { kind: 'allergen', code: 'peanut' }, category: 'food' });
  expect(allergy.statusCode, allergy.body).toBe(201);
  const notes = await t.db
    .insert(patientNotes)
    .values([
      { patientId, authorId: nurse.user.id, noteType: 'Progress Note', content: 'mine', status: 'finalized', finalizedAt: t.clock.now() },
      { patientId, authorId: other.id, noteType: 'Progress Note', content: 'theirs', status: 'finalized', finalizedAt: t.clock.now() },
    ])
    .returning();
  [ownNote, othersNote] = [notes[0]!.id, notes[1]!.id];
});
afterAll(async () => {
  await t?.close();
});

describe('managing clients', () => {
  it('an admin creates one: the secret is shown once, kept only as a hash, and the creation is audited', async () => {
    const created = await createClient(['system/*.read'], nurse.user.id);
    expect(created).toMatchObject({
      name: 'Patient portal',
      scopes: ['system/*.read'],
      actingUser: { id: nurse.user.id, role: 'nurse' },
      acceptedAt: null,
      revokedAt: null,
    });
    const list = await admin.get('/api/admin/api-clients');
    expect(list.json().find((c: { id: string }) => c.id === created.id)).not.toHaveProperty('clientSecret');
    expect(list.body).not.toContain(created.clientSecret);
    const [stored] = await t.db.select().from(apiClients).where(eq(apiClients.id, created.id));
    expect(stored!.secretHash).not.toContain(created.clientSecret);
    const audit = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where action = 'fhir.client_create' and entity_id = ${created.id}`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it('refuses what is not a client, and those who are not admins, writing nothing', async () => {
    const count = async () => (await t.db.select().from(apiClients)).length;
    const before = await count();
    const inactive = await createUser(t.db, { role: 'nurse', isActive: false });
    for (const [body, path] of [
      [{ name: 'x', actingUserId: nurse.user.id, scopes: ['system/Foo.read'] }, 'scopes.0'],
      [{ name: 'x', actingUserId: nurse.user.id, scopes: ['user/*.read'] }, 'scopes.0'],
      [{ name: 'x', actingUserId: nurse.user.id, scopes: [] }, 'scopes'],
      [{ name: '', actingUserId: nurse.user.id, scopes: ['system/*.read'] }, 'name'],
      [{ name: 'x', actingUserId: inactive.id, scopes: ['system/*.read'] }, 'actingUserId'],
    ] as const) {
      const res = await admin.post('/api/admin/api-clients', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await nurse.post('/api/admin/api-clients', { name: 'x', actingUserId: nurse.user.id, scopes: ['system/*.read'] })).statusCode).toBe(403);
    expect((await nurse.get('/api/admin/api-clients')).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe('the token endpoint', () => {
  it('issues an hour-long bearer token for the secret in the form or in Basic auth, and a narrower scope when asked', async () => {
    const c = await client(['system/*.read']);
    const posted = await token({ client_id: c.id, client_secret: c.clientSecret });
    expect(posted.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'system/*.read' });
    const basic = await token({}, { authorization: `Basic ${Buffer.from(`${c.id}:${c.clientSecret}`).toString('base64')}` });
    expect(basic.statusCode, basic.body).toBe(200);
    const narrow = await token({ client_id: c.id, client_secret: c.clientSecret, scope: 'system/Patient.read' });
    expect(narrow.json().scope).toBe('system/Patient.read');
  });

  it('refuses a wrong secret, an unknown client, another grant and a wider scope, issuing nothing; a refusal is audited', async () => {
    const narrow = await client(['system/Patient.read']);
    const tokens = async () => (await t.db.select().from(apiTokens).where(eq(apiTokens.clientId, narrow.id))).length;
    const wrong = await token({ client_id: narrow.id, client_secret: 'not-the-secret' });
    expect([wrong.statusCode, wrong.json().error, wrong.json().code]).toEqual([401, 'invalid_client', 'oauth.invalidClient']);
    expect((await token({ client_id: 'nobody', client_secret: 'x' })).statusCode).toBe(401);
    const grant = await token({ grant_type: 'password', client_id: narrow.id, client_secret: narrow.clientSecret });
    expect([grant.statusCode, grant.json().error]).toEqual([400, 'unsupported_grant_type']);
    const wider = await token({ client_id: narrow.id, client_secret: narrow.clientSecret, scope: 'system/*.read' });
    expect([wider.statusCode, wider.json().error]).toEqual([400, 'invalid_scope']);
    expect(await tokens()).toBe(0);
    const refused = await queryRows<{ outcome: string }>(t.db, sql`select outcome from audit_events where action = 'fhir.token' and entity_id = ${narrow.id}`);
    expect(refused.map((r) => r.outcome)).toEqual(['denied']);
  });
});

describe('reading with a token', () => {
  it("reads as its acting user: a nurse's token sees her notes and not another nurse's, nor the staff list; audited as her, tagged with the client", async () => {
    const c = await client(['system/*.read']);
    const access = await accessToken(c);
    const notes = await bearer(access, `DocumentReference?patient=${patientId}`);
    expect(notes.statusCode, notes.body).toBe(200);
    const bundle = notes.json() as Bundle;
    expect(fhirErrors(bundle)).toEqual([]);
    expect(bundle.entry!.map((e) => e.resource!.id)).toEqual([ownNote]);
    expect((await bearer(access, `DocumentReference/${othersNote}`)).statusCode).toBe(404);
    expect((await bearer(access, 'Practitioner')).statusCode).toBe(403);
    const rows = await queryRows<{ actor_id: string; user_agent: string }>(
      t.db,
      sql`select actor_id, user_agent from audit_events where action = 'note.list' and patient_ids @> array[${patientId}]::uuid[] order by seq desc limit 1`,
    );
    expect(rows[0]).toMatchObject({ actor_id: nurse.user.id, user_agent: expect.stringMatching(new RegExp(`^api-client/${c.id}`)) });
  });

  it('reads only the types its scopes open, $everything included', async () => {
    const access = await accessToken(await client(['system/Patient.read', 'system/AllergyIntolerance.read']));
    expect((await bearer(access, `Patient/${patientId}`)).statusCode).toBe(200);
    const refused = await bearer(access, `Observation?patient=${patientId}`);
    expect([refused.statusCode, refused.json().resourceType, refused.json().issue[0].code]).toEqual([403, 'OperationOutcome', 'forbidden']);
    const everything = (await bearer(access, `Patient/${patientId}/$everything`)).json() as Bundle;
    expect(new Set(everything.entry!.map((e) => e.resource!.resourceType))).toEqual(new Set(['Patient', 'AllergyIntolerance']));
  });

  it('stops at once when the client is revoked or its acting user deactivated; a bad token is 401 with its challenge', async () => {
    const c = await client(['system/*.read']);
    const access = await accessToken(c);
    expect((await bearer(access, `Patient/${patientId}`)).statusCode).toBe(200);
    const revoked = await admin.post(`/api/admin/api-clients/${c.id}/revoke`);
    expect(revoked.json().revokedAt).not.toBeNull();
    const after = await bearer(access, `Patient/${patientId}`);
    expect([after.statusCode, after.json().resourceType, after.headers['www-authenticate']]).toEqual([
      401,
      'OperationOutcome',
      'Bearer realm="fhir", error="invalid_token"',
    ]);
    expect((await token({ client_id: c.id, client_secret: c.clientSecret })).statusCode).toBe(401);

    const someone = await signInAs(t, 'scribe');
    const theirs = await client(['system/*.read'], someone);
    const theirAccess = await accessToken(theirs);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, someone.user.id));
    expect((await bearer(theirAccess, `Patient/${patientId}`)).statusCode).toBe(401);
    expect((await token({ client_id: theirs.id, client_secret: theirs.clientSecret })).statusCode).toBe(401);
    // Reactivating the account does not revive the token issued before (issue 47): a new one must be taken.
    await t.db.update(users).set({ isActive: true }).where(eq(users.id, someone.user.id));
    expect((await bearer(theirAccess, `Patient/${patientId}`)).statusCode).toBe(401);
    expect((await bearer(await accessToken(theirs), `Patient/${patientId}`)).statusCode).toBe(200);
  });

  it('is taken by the FHIR API only: the app API answers a bearer token as no session', async () => {
    const access = await accessToken(await client(['system/*.read']));
    const res = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { authorization: `Bearer ${access}` } });
    expect(res.statusCode).toBe(401);
    expect((await anonymous(t).get('/fhir/R4/.well-known/smart-configuration')).json()).toMatchObject({
      token_endpoint: expect.stringMatching(/\/api\/oauth\/token$/),
      grant_types_supported: ['client_credentials'],
    });
  });
});

describe('a client reading as someone else is a delegation she accepts (issue 47)', () => {
  it('gets no token until the acting account accepts; she is told, only she can accept, and her acceptance is audited', async () => {
    const c = await createClient(['system/*.read'], nurse.user.id);
    const refused = await token({ client_id: c.id, client_secret: c.clientSecret });
    expect([refused.statusCode, refused.json().error]).toEqual([401, 'invalid_client']);
    const told = await nurse.get('/api/notifications');
    expect(told.json().find((n: { entityId: string }) => n.entityId === c.id)).toMatchObject({
      type: 'account_changed',
      title: 'An API client asks to read as you',
    });

    const mine = await nurse.get('/api/auth/api-clients');
    expect(mine.json().find((x: { id: string }) => x.id === c.id)).toMatchObject({ acceptedAt: null, createdByName: expect.any(String) });
    // The admin who made it cannot accept for her, nor can anyone else: it is not theirs to see.
    expect((await admin.post(`/api/auth/api-clients/${c.id}/accept`, {})).statusCode).toBe(404);
    expect((await (await signInAs(t, 'nurse')).post(`/api/auth/api-clients/${c.id}/accept`, {})).statusCode).toBe(404);
    expect((await token({ client_id: c.id, client_secret: c.clientSecret })).statusCode).toBe(401);

    const accepted = await nurse.post(`/api/auth/api-clients/${c.id}/accept`, {});
    expect(accepted.json().acceptedAt).not.toBeNull();
    expect((await token({ client_id: c.id, client_secret: c.clientSecret })).statusCode).toBe(200);
    const audit = await queryRows<{ actor_id: string; outcome: string }>(
      t.db,
      sql`select actor_id, outcome from audit_events where action = 'fhir.client_accept' and entity_id = ${c.id} order by seq`,
    );
    // The two refused tries are there too, as refusals.
    expect(audit.map((r) => r.outcome)).toEqual(['not_found', 'not_found', 'allowed']);
    expect(audit[2]!.actor_id).toBe(nurse.user.id);
  });

  it('a client an admin makes to read as herself is in use at once', async () => {
    const res = await admin.post('/api/admin/api-clients', { name: 'Own export', actingUserId: admin.user.id, scopes: ['system/Patient.read'] });
    expect(res.json().acceptedAt).not.toBeNull();
    expect((await token({ client_id: res.json().id, client_secret: res.json().clientSecret })).statusCode).toBe(200);
  });

  it('she may decline one, or stop one she accepted: it is revoked, its tokens end, and it cannot be accepted again', async () => {
    const c = await client(['system/*.read']);
    const access = await accessToken(c);
    const stopped = await nurse.post(`/api/auth/api-clients/${c.id}/revoke`);
    expect(stopped.json().revokedAt).not.toBeNull();
    expect((await bearer(access, `Patient/${patientId}`)).statusCode).toBe(401);
    const again = await nurse.post(`/api/auth/api-clients/${c.id}/accept`, {});
    expect([again.statusCode, again.json().code]).toEqual([409, 'apiClient.revoked']);
    // Nobody else's client is hers to revoke.
    const others = await createClient(['system/*.read'], admin.user.id);
    expect((await nurse.post(`/api/auth/api-clients/${others.id}/revoke`)).statusCode).toBe(404);
    expect((await admin.get('/api/admin/api-clients')).json().find((x: { id: string }) => x.id === others.id).revokedAt).toBeNull();
  });

  it('accepting needs a fresh second factor from someone who has one', async () => {
    const scheduler = await signInAs(t, 'scheduler');
    const setup = (await scheduler.post('/api/auth/factors/totp', {})).json() as { factorId: string; secret: string };
    expect((await scheduler.post(`/api/auth/factors/totp/${setup.factorId}/confirm`, { code: totpCodeAt(setup.secret, t.clock.now()) })).statusCode).toBe(200);
    const c = await createClient(['system/*.read'], scheduler.user.id);
    const bare = await scheduler.post(`/api/auth/api-clients/${c.id}/accept`, {});
    expect([bare.statusCode, bare.json().code]).toEqual([401, 'signIn.badCode']);
    t.clock.advance(30_000);
    const proven = await scheduler.post(`/api/auth/api-clients/${c.id}/accept`, { proof: { method: 'totp', code: totpCodeAt(setup.secret, t.clock.now()) } });
    expect(proven.statusCode, proven.body).toBe(200);
  });

  it('never reaches a restricted patient, even reading as someone on her care team: restricted records are read by a person', async () => {
    const hidden = await insertPatient(t.db, {});
    await t.db.update(patients).set({ restrictedAt: t.clock.now(), restrictedBy: admin.user.id }).where(eq(patients.id, hidden.id));
    await t.db.insert(patientCareTeam).values({ patientId: hidden.id, userId: nurse.user.id, addedBy: admin.user.id });
    const access = await accessToken(await client(['system/*.read']));
    for (const path of [`Patient/${hidden.id}`, `Patient/${hidden.id}/$everything`]) expect((await bearer(access, path)).statusCode, path).toBe(404);
    const search = (await bearer(access, `Patient?_id=${hidden.id}`)).json() as Bundle;
    expect(search.entry ?? []).toEqual([]);
  });
});

describe('the token endpoint under hostile input', () => {
  it('answers 401 invalid_client to Basic credentials that are not valid percent-encoding', async () => {
    for (const pair of ['%E0%A4%A:secret', '%ZZ:secret', 'b8a0b2de-0000-4000-8000-000000000000:%ZZ']) {
      const res = await token({}, { authorization: `Basic ${Buffer.from(pair).toString('base64')}` });
      expect([res.statusCode, res.json().error], pair).toEqual([401, 'invalid_client']);
    }
  });
});
