import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationOutcome, Patient } from '@medplum/fhirtypes';
import { FHIR_CREATABLE, FHIR_RESOURCE_TYPES } from '#domain/fhir';
import { queryRows } from '../../server/db/database.ts';
import { apiTokens } from '../../server/db/schema/api-clients.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The FHIR API's HTTP as clients and caches expect it: validators on reads (ETag, Last-Modified,
// 304), RFC 6750's challenge on a 401, RFC 6749's errors and headers at the token endpoint, and
// 405 / 406 OperationOutcomes for writes and XML, which are not served.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let patientId: string;
let allergyId: string;

const BASE = '/fhir/R4';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const token = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/oauth/token', ...form(fields) });
const bearer = (accessToken: string, path: string) =>
  t.app.inject({ method: 'GET', url: `${BASE}/${path}`, headers: { authorization: `Bearer ${accessToken}` } });

/** A client an admin made to read as the nurse, accepted by her, and a token of it. */
async function clientAndToken() {
  const created = await admin.post('/api/admin/api-clients', { name: 'Sync service', actingUserId: nurse.user.id, scopes: ['system/*.read'] });
  expect(created.statusCode, created.body).toBe(201);
  const c = created.json() as { id: string; clientSecret: string };
  expect((await nurse.post(`/api/auth/api-clients/${c.id}/accept`, {})).statusCode).toBe(200);
  const issued = await token({ grant_type: 'client_credentials', client_id: c.id, client_secret: c.clientSecret });
  expect(issued.statusCode, issued.body).toBe(200);
  return { client: c, access: issued.json().access_token as string };
}

/** An answer that is an OperationOutcome of `status`, sent as FHIR JSON; its first issue. */
function outcome(res: { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown }, status: number) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const body = res.json() as OperationOutcome;
  expect(body.resourceType).toBe('OperationOutcome');
  return body.issue![0]!;
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  patientId = (await insertPatient(t.db)).id;
  const allergy = await nurse.post(`/api/patients/${patientId}/allergies`, { substance: { kind: 'allergen', code: 'peanut' }, category: 'food' });
  expect(allergy.statusCode, allergy.body).toBe(201);
  allergyId = allergy.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe('defect 13: reads carry ETag and Last-Modified, and answer conditional requests with 304', () => {
  it('a read names its version (ETag) and its meta.lastUpdated as an HTTP date (Last-Modified), the same on a second read', async () => {
    for (const path of [`Patient/${patientId}`, `AllergyIntolerance/${allergyId}`, `Practitioner/${nurse.user.id}`]) {
      const res = await admin.get(`${BASE}/${path}`);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(200);
      const lastUpdated = (res.json() as Patient).meta!.lastUpdated!;
      expect(res.headers.etag, path).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(res.headers['last-modified'], path).toBe(new Date(lastUpdated).toUTCString());
      expect((await admin.get(`${BASE}/${path}`)).headers.etag, path).toBe(res.headers.etag);
    }
  });

  it('If-None-Match with the current ETag (alone, in a list, or *) is a 304 with no body; another ETag is a 200', async () => {
    const path = `${BASE}/Patient/${patientId}`;
    const etag = (await nurse.get(path)).headers.etag as string;
    for (const ifNoneMatch of [etag, `W/"other", ${etag}`, etag.slice(2), '*']) {
      const res = await nurse.get(path, { 'if-none-match': ifNoneMatch });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect([res.body, res.headers['content-type'], res.headers['content-length']]).toEqual(['', undefined, undefined]);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['last-modified']).toBeDefined();
    }
    const other = await nurse.get(path, { 'if-none-match': 'W/"something-else"' });
    expect([other.statusCode, (other.json() as Patient).id]).toEqual([200, patientId]);
  });

  it('If-Modified-Since at or after Last-Modified is a 304; before it, or unparseable, a 200; If-None-Match wins over it', async () => {
    const path = `${BASE}/Patient/${patientId}`;
    const first = await nurse.get(path);
    const lastModified = first.headers['last-modified'] as string;
    const at = Date.parse(lastModified);
    for (const since of [lastModified, new Date(at + 60_000).toUTCString()]) {
      const res = await nurse.get(path, { 'if-modified-since': since });
      expect([res.statusCode, res.body], since).toEqual([304, '']);
    }
    for (const since of [new Date(at - 1000).toUTCString(), 'yesterday']) {
      expect((await nurse.get(path, { 'if-modified-since': since })).statusCode, since).toBe(200);
    }
    // A client holding another version is sent this one, whatever the date says.
    expect((await nurse.get(path, { 'if-none-match': 'W/"old"', 'if-modified-since': lastModified })).statusCode).toBe(200);
  });

  it('a change to the record changes both: the old validators then get the new version', async () => {
    const target = (await insertPatient(t.db)).id;
    const path = `${BASE}/Patient/${target}`;
    const before = await nurse.get(path);
    const later = new Date(Date.parse((before.json() as Patient).meta!.lastUpdated!) + 5000);
    await t.db.update(patients).set({ phone: '555-0199', updatedAt: later }).where(eq(patients.id, target));
    const changed = await nurse.get(path, { 'if-none-match': before.headers.etag as string });
    expect(changed.statusCode).toBe(200);
    expect((changed.json() as Patient).telecom).toEqual(expect.arrayContaining([expect.objectContaining({ value: '555-0199' })]));
    expect(changed.headers.etag).not.toBe(before.headers.etag);
    expect(changed.headers['last-modified']).toBe(later.toUTCString());
    expect((await nurse.get(path, { 'if-modified-since': before.headers['last-modified'] as string })).statusCode).toBe(200);
  });

  it('a 304 is audited as the read it is: one patient.read row, as a 200 leaves', async () => {
    const rows = async () =>
      (
        await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from audit_events where actor_id = ${nurse.user.id} and action = 'patient.read'
                and entity_id = ${`Patient/${patientId}`} and patient_id = ${patientId} and outcome = 'allowed'`,
        )
      )[0]!.n;
    const start = await rows();
    const etag = (await nurse.get(`${BASE}/Patient/${patientId}`)).headers.etag as string;
    expect(await rows()).toBe(start + 1);
    expect((await nurse.get(`${BASE}/Patient/${patientId}`, { 'if-none-match': etag })).statusCode).toBe(304);
    expect(await rows()).toBe(start + 2);
  });

  it('a bearer token read carries the same validators, and a refused read never answers 304', async () => {
    const { access } = await clientAndToken();
    const res = await bearer(access, `Patient/${patientId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^W\//);
    const scheduler = await signInAs(t, 'scheduler');
    const refused = await scheduler.get(`${BASE}/AllergyIntolerance/${allergyId}`, { 'if-none-match': '*' });
    outcome(refused, 403);
    const unknown = await nurse.get(`${BASE}/Patient/${UNKNOWN}`, { 'if-none-match': '*' });
    outcome(unknown, 404);
  });
});

describe('defect 14: a 401 on /fhir/R4 carries its Bearer challenge (RFC 6750)', () => {
  it('no credentials: realm only', async () => {
    for (const path of ['Patient', `Patient/${patientId}`, `Patient/${patientId}/$everything`]) {
      const res = await anonymous(t).get(`${BASE}/${path}`);
      expect(outcome(res, 401).code).toBe('login');
      expect(res.headers['www-authenticate'], path).toBe('Bearer realm="fhir"');
    }
  });

  it('a token that is unknown, malformed, expired or revoked: realm and error="invalid_token"', async () => {
    const challenge = 'Bearer realm="fhir", error="invalid_token"';
    for (const sent of ['Bearer abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', 'Bearer not a token', 'Bearer x']) {
      const res = await t.app.inject({ method: 'GET', url: `${BASE}/Patient/${patientId}`, headers: { authorization: sent } });
      outcome(res, 401);
      expect(res.headers['www-authenticate'], sent).toBe(challenge);
    }
    const expiring = await clientAndToken();
    expect((await bearer(expiring.access, `Patient/${patientId}`)).statusCode).toBe(200);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(apiTokens.clientId, expiring.client.id));
    const expired = await bearer(expiring.access, `Patient/${patientId}`);
    outcome(expired, 401);
    expect(expired.headers['www-authenticate']).toBe(challenge);

    const revoking = await clientAndToken();
    expect((await admin.post(`/api/admin/api-clients/${revoking.client.id}/revoke`)).statusCode).toBe(200);
    const revoked = await bearer(revoking.access, `Patient/${patientId}`);
    outcome(revoked, 401);
    expect(revoked.headers['www-authenticate']).toBe(challenge);
  });

  it('a token whose scopes do not name the type: 403 with error="insufficient_scope" and the scope it needs (RFC 6750 3.1)', async () => {
    const created = await admin.post('/api/admin/api-clients', {
      name: 'Allergy sync',
      actingUserId: nurse.user.id,
      scopes: ['system/AllergyIntolerance.read'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json() as { id: string; clientSecret: string };
    expect((await nurse.post(`/api/auth/api-clients/${c.id}/accept`, {})).statusCode).toBe(200);
    const issued = await token({ grant_type: 'client_credentials', client_id: c.id, client_secret: c.clientSecret });
    const res = await bearer(issued.json().access_token as string, `Patient/${patientId}`);
    outcome(res, 403);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="fhir", error="insufficient_scope", scope="system/Patient.read"');
  });

  it('a signed-in read or a public page carries no challenge', async () => {
    expect((await nurse.get(`${BASE}/Patient/${patientId}`)).headers['www-authenticate']).toBeUndefined();
    expect((await anonymous(t).get(`${BASE}/metadata`)).headers['www-authenticate']).toBeUndefined();
  });
});

describe('defect 15: the token endpoint answers RFC 6749 errors, and no token answer is cached', () => {
  it('another grant type is unsupported_grant_type; a missing one is invalid_request; neither issues a token', async () => {
    const { client } = await clientAndToken();
    const tokens = async () => (await t.db.select({ n: count() }).from(apiTokens).where(eq(apiTokens.clientId, client.id)))[0]!.n;
    const before = await tokens();
    for (const grant of ['authorization_code', 'refresh_token', 'password', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) {
      const res = await token({ grant_type: grant, client_id: client.id, client_secret: client.clientSecret, code: 'abc' });
      expect([res.statusCode, res.json().error, res.json().code], grant).toEqual([400, 'unsupported_grant_type', 'oauth.unsupportedGrantType']);
    }
    for (const missing of [{}, { grant_type: '' }] as Record<string, string>[]) {
      const res = await token({ ...missing, client_id: client.id, client_secret: client.clientSecret });
      expect([res.statusCode, res.json().error], JSON.stringify(missing)).toEqual([400, 'invalid_request']);
    }
    const noSecret = await token({ grant_type: 'client_credentials', client_id: client.id });
    expect([noSecret.statusCode, noSecret.json().error]).toEqual([400, 'invalid_request']);
    expect(await tokens()).toBe(before);
  });

  it('every answer, a token or a refusal, says Cache-Control: no-store and Pragma: no-cache', async () => {
    const { client } = await clientAndToken();
    const answers = [
      await token({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.clientSecret }),
      await token({ grant_type: 'client_credentials', client_id: client.id, client_secret: 'wrong' }),
      await token({ grant_type: 'authorization_code', client_id: client.id, client_secret: client.clientSecret }),
      await token({ grant_type: 'client_credentials' }),
      await token({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.clientSecret, scope: 'system/Nothing.read' }),
      await token({ grant_type: 'client_credentials', client_id: 'x'.repeat(500), client_secret: 'x' }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 400, 400, 400, 400]);
    for (const res of answers) {
      expect([res.headers['cache-control'], res.headers.pragma], res.body).toEqual(['no-store', 'no-cache']);
    }
  });
});

describe('writes are 405 and XML is 406, each an OperationOutcome', () => {
  // A lab's results are the one create served (issue 54: tests/api/lab-interface-fhir.test.ts): a
  // POST of DiagnosticReport or Observation is a client's, refused to a session or nobody (403, 401).
  const writes = (type: string) =>
    [
      ...((FHIR_CREATABLE as readonly string[]).includes(type) ? [] : [['POST', `${BASE}/${type}`] as const]),
      ['PUT', `${BASE}/${type}`],
      ['PATCH', `${BASE}/${type}`],
      ['DELETE', `${BASE}/${type}`],
      ['POST', `${BASE}/${type}/${UNKNOWN}`],
      ['PUT', `${BASE}/${type}/${patientId}`],
      ['PATCH', `${BASE}/${type}/${patientId}`],
      ['DELETE', `${BASE}/${type}/${patientId}`],
    ] as const;

  it('a create, update, patch or delete on any served type is 405 with Allow, writing nothing, signed in or not', async () => {
    const patientsBefore = (await t.db.select({ n: count() }).from(patients))[0]!.n;
    for (const type of FHIR_RESOURCE_TYPES) {
      for (const [method, url] of writes(type)) {
        for (const cookie of [admin.cookie, null]) {
          const res = await t.app.inject({
            method,
            url,
            headers: { 'content-type': 'application/fhir+json', ...(cookie ? { cookie: `sid=${cookie}` } : {}) },
            payload: JSON.stringify({ resourceType: type, id: patientId }),
          });
          const issue = outcome(res, 405);
          expect(issue.code, `${method} ${url}`).toBe('not-supported');
          expect(issue.diagnostics).toContain(method);
          expect(res.headers.allow, `${method} ${url}`).toBe('GET, HEAD');
        }
      }
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/Patient/${patientId}`,
      headers: { 'content-type': 'application/json-patch+json', cookie: `sid=${admin.cookie}` },
      payload: '[{"op":"replace","path":"/active","value":false}]',
    });
    outcome(patch, 405);
    expect((await t.db.select({ n: count() }).from(patients))[0]!.n).toBe(patientsBefore);
    expect((await t.db.select({ active: patients.isActive }).from(patients).where(eq(patients.id, patientId)))[0]!.active).toBe(true);
  });

  it('the methods Allow names are served', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: `${BASE}/Patient/${patientId}`, headers: { cookie: `sid=${admin.cookie}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: `${BASE}/Patient?_id=${patientId}`, headers: { cookie: `sid=${admin.cookie}` } })).statusCode).toBe(200);
  });

  it('a write on a type not served stays a 404, whatever its body', async () => {
    const res = await admin.post(`${BASE}/Immunization`, { resourceType: 'Immunization' });
    expect(outcome(res, 404).code).toBe('not-found');
    const fhirBody = await admin.post(`${BASE}/Immunization`, '{"resourceType":"Immunization"}', { 'content-type': 'application/fhir+json' });
    expect(outcome(fhirBody, 404).code).toBe('not-found');
  });

  it('Accept asking only for XML (or anything but JSON) is 406', async () => {
    for (const accept of ['application/fhir+xml', 'application/xml', 'text/xml', 'text/html', 'application/fhir+json;q=0, application/fhir+xml']) {
      for (const path of [`Patient/${patientId}`, `Patient?_id=${patientId}`, 'metadata', `Patient/${patientId}/$everything`]) {
        const res = await admin.get(`${BASE}/${path}`, { accept });
        expect(outcome(res, 406).code, `${accept} ${path}`).toBe('not-supported');
      }
    }
  });

  it('_format=xml (in any of its spellings) is 406, and overrides Accept either way', async () => {
    for (const format of ['xml', 'text/xml', 'application/xml', 'application/fhir+xml', 'html']) {
      for (const path of [`Patient/${patientId}?`, `Patient?_id=${patientId}&`, 'metadata?']) {
        const res = await admin.get(`${BASE}/${path}_format=${encodeURIComponent(format)}`, { accept: 'application/fhir+json' });
        expect(outcome(res, 406).code, `${format} ${path}`).toBe('not-supported');
      }
    }
    const json = await admin.get(`${BASE}/Patient/${patientId}?_format=json`, { accept: 'application/fhir+xml' });
    expect([json.statusCode, (json.json() as Patient).id]).toEqual([200, patientId]);
    // A `+` left unencoded in the query string arrives as a space.
    expect((await admin.get(`${BASE}/Patient/${patientId}?_format=application/fhir+json`)).statusCode).toBe(200);
  });

  it('JSON, a wildcard, a browser default, a preference for XML with JSON also taken, or no Accept: 200', async () => {
    for (const accept of [
      'application/fhir+json',
      'application/fhir+json; fhirVersion=4.0',
      'application/json',
      'application/json+fhir',
      '*/*',
      'application/*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/fhir+xml, application/fhir+json;q=0.5',
      '',
    ]) {
      const res = await admin.get(`${BASE}/Patient/${patientId}`, accept ? { accept } : {});
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    }
  });
});
