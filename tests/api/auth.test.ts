import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '#domain/errors';
import { auditEvents, sessions, users } from '../../server/db/schema/auth.ts';
import { THROTTLE } from '../../server/modules/auth/login-throttle.ts';
import { createUser, TEST_PASSWORD } from '../helpers/factories.ts';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { inTransaction } from '../../server/db/transaction.ts';
import { buildTestApp, Client, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (client: Client, email: string, password = TEST_PASSWORD, headers: Record<string, string> = {}) =>
  client.post('/api/auth/login', { email, password }, headers);

describe('POST /api/auth/login', () => {
  it('signs in with the right password, sets an httpOnly SameSite=Lax cookie and returns the current user', async () => {
    const user = await createUser(t.db, { role: 'scribe' });
    const client = anonymous(t);
    const res = await login(client, user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: 'scribe' });
    const cookie = res.cookies.find((c) => c.name === 'sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(res.body).not.toContain('argon2');

    const me = await client.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
  });

  it('stores only a hash of the session token', async () => {
    const client = await signInAs(t, 'nurse');
    const rows = await t.db
      .select()
      .from(sessions)
      .where(sql`${sessions.sess}->>'userId' = ${client.user.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sid).not.toBe(client.cookie);
    expect(rows[0]!.sid).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a wrong password with the contract message and writes an audit row', async () => {
    const user = await createUser(t.db);
    const res = await login(anonymous(t), user.email, 'wrong password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid email or password', code: 'signIn.invalidCredentials' });
    expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id));
    expect(audit.map((a) => [a.action, a.outcome])).toContainEqual(['auth.login_failed', 'denied']);
  });

  it('records a throttled sign-in and one to a deactivated account as denied, not allowed', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 5; i++) await login(anonymous(t), user.email, 'wrong password');
    expect((await login(anonymous(t), user.email, 'wrong password')).statusCode).toBe(429);
    const inactive = await createUser(t.db, { isActive: false });
    expect((await login(anonymous(t), inactive.email, TEST_PASSWORD)).statusCode).toBe(403);
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['auth.login_refused_locked', 'auth.login_refused_inactive']));
    const outcomes = rows.filter((r) => r.entityId === user.email || r.entityId === inactive.id).map((r) => [r.action, r.outcome]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ['auth.login_refused_locked', 'denied'],
        ['auth.login_refused_inactive', 'denied'],
      ]),
    );
    expect(outcomes.every(([, outcome]) => outcome === 'denied')).toBe(true);
  });

  it('refuses an unknown email with the same message', async () => {
    const res = await login(anonymous(t), 'nobody-here@test.clinic');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid email or password', code: 'signIn.invalidCredentials' });
  });

  it('refuses a deactivated user, and ends their open sessions', async () => {
    const client = await signInAs(t, 'nurse');
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    // Changed in the database by hand, past the app: seen once the cached session is re-read.
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, client.user.id));
    t.clock.advance(t.config.sessionRevalidateMs);

    const during = await client.get('/api/auth/user');
    expect(during.statusCode).toBe(401);
    expect(during.json()).toEqual({ message: 'Unauthorized', code: 'auth.unauthenticated' });

    const again = await login(anonymous(t), client.user.email);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ message: ERRORS['signIn.deactivated'].message, code: 'signIn.deactivated' });
  });

  it('a change of access raised through the app ends cached sessions at once', async () => {
    const client = await signInAs(t, 'scribe');
    expect((await client.get('/api/auth/user')).json().role).toBe('scribe');
    await t.db.update(users).set({ role: 'supplier' }).where(eq(users.id, client.user.id));
    // What a service that changes access raises.
    await inTransaction({ db: t.db, events: t.bus }, async (_tx, raise) => raise({ type: 'user.accessChanged', userId: client.user.id }));
    await eventsDelivered();
    expect((await client.get('/api/auth/user')).json().role).toBe('supplier');
  });

  it('slows repeated failures for one email, then refuses with 429 and a clear message', async () => {
    const user = await createUser(t.db);
    const timings: number[] = [];
    for (let i = 0; i < THROTTLE.pairLimit; i++) {
      const started = Date.now();
      const res = await login(anonymous(t), user.email, 'wrong');
      timings.push(Date.now() - started);
      expect(res.statusCode).toBe(401);
    }
    // The later failures are answered more slowly than the first.
    expect(timings.at(-1)!).toBeGreaterThanOrEqual(timings[0]! + 200);

    const locked = await login(anonymous(t), user.email);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many failed sign-in attempts\. Try again in 15 minutes\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    // The lock ends after its time, and the right password works again.
    t.clock.advance(THROTTLE.pairLockMs + 1000);
    expect((await login(anonymous(t), user.email)).statusCode).toBe(200);
  });

  it('answers 400 with field paths for wrong types, and for a body that is not JSON', async () => {
    const wrong = await anonymous(t).post('/api/auth/login', { email: 42 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: 'Validation failed',
      code: 'request.validation',
      errors: [
        { path: 'email', message: expect.any(String) },
        { path: 'password', message: expect.any(String) },
      ],
    });
    const malformed = await anonymous(t).post('/api/auth/login', '{"email": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'Request body is not valid JSON', code: 'request.malformedJson' });
  });

  it('rotates the session id: the cookie held before sign-in stops working', async () => {
    const user = await createUser(t.db);
    const client = anonymous(t);
    await login(client, user.email);
    const first = client.cookie!;
    await login(client, user.email);
    expect(client.cookie).not.toBe(first);
    expect((await new Client(t.app, first).get('/api/auth/user')).statusCode).toBe(401);
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
  });
});

describe('session lifetime', () => {
  it('expires after the idle timeout, and activity keeps it alive', async () => {
    const client = await signInAs(t, 'scheduler');
    t.clock.advance(t.config.sessionIdleMs - 60_000);
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    t.clock.advance(t.config.sessionIdleMs - 60_000);
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    t.clock.advance(t.config.sessionIdleMs + 1000);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('ends at the absolute lifetime even when in use', async () => {
    const client = await signInAs(t, 'admin');
    const step = t.config.sessionIdleMs - 120_000;
    for (let elapsed = 0; elapsed + step < t.config.sessionMaxMs; elapsed += step) {
      t.clock.advance(step);
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    }
    t.clock.advance(step);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('GET /api/logout', () => {
  it('from the app (a same-origin navigation) ends the session, clears the cookie and leads to /', async () => {
    const client = await signInAs(t, 'nurse');
    const token = client.cookie!;
    const res = await client.get('/api/logout', { 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(client.cookie).toBeNull();
    expect((await new Client(t.app, token).get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('GET /api/login', () => {
  it('leads a visitor to the sign-in page and a signed-in user home', async () => {
    const visitor = await anonymous(t).get('/api/login');
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toBe('/login');
    const user = await (await signInAs(t, 'nurse')).get('/api/login');
    expect(user.headers.location).toBe('/');
  });

  it('carries on the page asked for, if it is a path of this site (issue 29)', async () => {
    const cases: [string, string][] = [
      ['/notes', '/login?next=%2Fnotes'],
      ['/appointments?tab=all', '/login?next=%2Fappointments%3Ftab%3Dall'],
      ['//evil.example/x', '/login'],
      ['https://evil.example/', '/login'],
      ['/\\evil.example', '/login'],
      ['/login', '/login'],
      ['/api/auth/user', '/login'],
    ];
    for (const [next, location] of cases) {
      const res = await anonymous(t).get(`/api/login?next=${encodeURIComponent(next)}`);
      expect([res.statusCode, res.headers.location], next).toEqual([302, location]);
    }
    expect((await (await signInAs(t, 'nurse')).get('/api/login?next=%2Fnotes')).headers.location).toBe('/notes');
  });
});

describe('GET /api/auth/demo-users', () => {
  it('is not offered outside demo mode', async () => {
    expect((await anonymous(t).get('/api/auth/demo-users')).statusCode).toBe(404);
  });
});

describe('the signed-in hint cookie', () => {
  const hintOf = (res: { cookies: { name: string; value: string; httpOnly?: boolean; expires?: Date }[] }) => res.cookies.find((c) => c.name === 'signed_in');

  it('is set, readable by the page, with the session cookie at sign-in', async () => {
    const user = await createUser(t.db);
    const res = await login(anonymous(t), user.email);
    expect(hintOf(res)).toMatchObject({ value: '1', sameSite: 'Lax', path: '/' });
    expect(hintOf(res)!.httpOnly).toBeFalsy();
  });

  it('is put back for a session that lacks it, and dropped where there is no session', async () => {
    const client = await signInAs(t, 'nurse');
    const restored = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: `sid=${client.cookie}` } });
    expect(hintOf(restored)?.value).toBe('1');
    const kept = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: `sid=${client.cookie}; signed_in=1` } });
    expect(hintOf(kept)).toBeUndefined();

    const stale = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: 'signed_in=1' } });
    expect(stale.statusCode).toBe(401);
    expect(hintOf(stale)!.expires!.getTime()).toBeLessThan(Date.now());
    const visitor = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(visitor.cookies).toEqual([]);
  });

  it('goes at sign-out with the session', async () => {
    const client = await signInAs(t, 'nurse');
    const res = await client.post('/api/logout', undefined, { origin: 'http://localhost:80', host: 'localhost:80' });
    expect(hintOf(res)!.expires!.getTime()).toBeLessThan(Date.now());
  });
});
