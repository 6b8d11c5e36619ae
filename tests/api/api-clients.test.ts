import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { queryRows } from '../../server/db/database.ts';
import { apiClients, apiTokens } from '../../server/db/schema/api-clients.ts';
import { users } from '../../server/db/schema/auth.ts';
import { patientNotes } from '../../server/db/schema/clinical.ts';
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
async function client(scopes: string[], actingUserId = nurse.user.id) {
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
  patientId = (await insertPatient(t.db, { allergies: 'Peanuts' })).id;
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
    const created = await client(['system/*.read']);
    expect(created).toMatchObject({ name: 'Patient portal', scopes: ['system/*.read'], actingUser: { id: nurse.user.id, role: 'nurse' }, revokedAt: null });
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
    expect([grant.statusCode, grant.json().error]).toEqual([400, 'invalid_request']);
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
    expect([after.statusCode, after.json().resourceType, after.headers['www-authenticate']]).toEqual([401, 'OperationOutcome', 'Bearer error="invalid_token"']);
    expect((await token({ client_id: c.id, client_secret: c.clientSecret })).statusCode).toBe(401);

    const someone = await createUser(t.db, { role: 'scribe' });
    const theirs = await client(['system/*.read'], someone.id);
    const theirAccess = await accessToken(theirs);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, someone.id));
    expect((await bearer(theirAccess, `Patient/${patientId}`)).statusCode).toBe(401);
    expect((await token({ client_id: theirs.id, client_secret: theirs.clientSecret })).statusCode).toBe(401);
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
