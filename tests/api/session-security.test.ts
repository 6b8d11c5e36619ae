import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '#domain/signed-in-hint';
import { users } from '../../server/db/schema/auth.ts';
import { auditTrailOfPatient } from '../../server/modules/audit/audit.queries.ts';
import { patientInput, TEST_PASSWORD } from '../helpers/factories.ts';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('signing out', () => {
  it('POST /api/logout ends the session and leads to /', async () => {
    const client = await signInAs(t, 'nurse');
    const token = client.cookie!;
    const res = await client.post('/api/logout', undefined, { origin: 'http://localhost:80', host: 'localhost:80' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect((await new Client(t.app, token).get('/api/auth/user')).statusCode).toBe(401);
  });

  it("the sign-out button's plain form post works too", async () => {
    const client = await signInAs(t, 'nurse');
    const res = await client.request('POST', '/api/logout', '', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(303);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('a foreign site cannot sign anyone out with a POST', async () => {
    const client = await signInAs(t, 'nurse');
    const res = await client.post('/api/logout', undefined, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
  });

  it.each([
    ['a cross-site link', { 'sec-fetch-site': 'cross-site' }],
    ['a link on a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    ['a request that does not say where it came from', {}],
  ])('%s to GET /api/logout asks to confirm instead of signing out', async (_what, headers: Record<string, string>) => {
    const client = await signInAs(t, 'nurse');
    const res = await client.get('/api/logout', headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<form method="post" action="/api/logout">');
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
  });

  it.each(['same-origin', 'none'])("the app's own link (%s), or one typed or bookmarked, signs out at once", async (site) => {
    const client = await signInAs(t, 'nurse');
    const res = await client.get('/api/logout', { 'sec-fetch-site': site });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('a request with a dead session, answered after a new sign-in', () => {
  it("drops the page's hint but leaves the session cookie alone, so a sign-in racing it keeps its new session", async () => {
    const before = await signInAs(t, 'nurse');
    const dead = before.cookie!;
    // Signed in again in the same browser: the first session is ended, a new cookie is set.
    const again = await before.post('/api/auth/login', { email: before.user.email, password: TEST_PASSWORD });
    expect(again.statusCode).toBe(200);
    // A request the page sent with the first one is answered now.
    const late = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: `sid=${dead}; ${SIGNED_IN_HINT_COOKIE}=1` } });
    expect(late.statusCode).toBe(401);
    const cleared = late.cookies.map((c) => c.name);
    expect(cleared).not.toContain('sid');
    expect(cleared).toContain(SIGNED_IN_HINT_COOKIE);
    expect((await before.get('/api/auth/user')).statusCode).toBe(200);
  });
});

describe('a deactivated user', () => {
  it('has every session deleted, so reactivation revives none of them', async () => {
    const client = await signInAs(t, 'scheduler');
    const token = client.cookie!;
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, client.user.id));
    await t.db.update(users).set({ isActive: true }).where(eq(users.id, client.user.id));
    t.clock.advance(t.config.sessionRevalidateMs);
    expect((await new Client(t.app, token).get('/api/auth/user')).statusCode).toBe(401);
    // Signing in again works.
    const again = await anonymous(t).post('/api/auth/login', { email: client.user.email, password: TEST_PASSWORD });
    expect(again.statusCode).toBe(200);
  });
});

describe('a short idle timeout', () => {
  it('slides with activity: a request every 15 s keeps a one-minute session alive', async () => {
    const short = await buildTestApp({ SESSION_IDLE_MINUTES: '1' });
    try {
      const client = await signInAs(short, 'nurse');
      for (let elapsed = 0; elapsed < 3 * 60_000; elapsed += 15_000) {
        short.clock.advance(15_000);
        expect((await client.get('/api/auth/user')).statusCode, `after ${elapsed + 15_000} ms`).toBe(200);
      }
      short.clock.advance(61_000);
      expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('refused attempts on patient records are audited', () => {
  it('a 401, a 403 and a 404 each leave a row: who (or nobody), from where, which id, and why', async () => {
    const nurse = await signInAs(t, 'nurse');
    const supplier = await signInAs(t, 'supplier');
    const patient = (await nurse.post('/api/patients', patientInput())).json();
    const missing = randomUUID();

    expect((await anonymous(t).get(`/api/patients/${patient.id}`)).statusCode).toBe(401);
    expect((await supplier.get(`/api/patients/${patient.id}`)).statusCode).toBe(403);
    expect((await supplier.put(`/api/patients/${patient.id}`, { phone: '1' })).statusCode).toBe(403);
    expect((await nurse.get(`/api/patients/${missing}`)).statusCode).toBe(404);

    const refused = (await auditTrailOfPatient(t.db, patient.id)).filter((r) => r.outcome !== 'allowed');
    expect(refused.map((r) => [r.action, r.outcome, r.actorId, r.ip]).sort()).toEqual(
      [
        ['patient.read', 'forbidden', supplier.user.id, '127.0.0.1'],
        ['patient.read', 'unauthenticated', null, '127.0.0.1'],
        ['patient.update', 'forbidden', supplier.user.id, '127.0.0.1'],
      ].sort(),
    );
    const notFound = await auditTrailOfPatient(t.db, missing);
    expect(notFound.map((r) => [r.action, r.outcome, r.actorId, r.entityId])).toEqual([['patient.read', 'not_found', nurse.user.id, missing]]);
  });

  it('the row is written before the refusal is answered', async () => {
    // It was once written after the answer, and a caller reading the trail at once raced it.
    const nurse = await signInAs(t, 'nurse');
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const missing = randomUUID();
      expect((await nurse.get(`/api/patients/${missing}`)).statusCode).toBe(404);
      expect(await auditTrailOfPatient(t.db, missing), `attempt ${attempt}`).toHaveLength(1);
    }
  });

  it('what is allowed is recorded as allowed', async () => {
    const nurse = await signInAs(t, 'nurse');
    const patient = (await nurse.post('/api/patients', patientInput())).json();
    await nurse.get(`/api/patients/${patient.id}`);
    const rows = await auditTrailOfPatient(t.db, patient.id, 'patient.read');
    expect(rows.map((r) => r.outcome)).toEqual(['allowed']);
  });
});
