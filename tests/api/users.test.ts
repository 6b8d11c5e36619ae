import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE } from '#domain/live-events';
import { ZAdminUser, ZDirectoryEntry, type TInviteResult, type TPasswordLink } from '#domain/users';
import { auditEvents, users, userTokens } from '../../server/db/schema/auth.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { createUser, TEST_PASSWORD, unique } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, Client, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

// User management (issue 20): the admin's list, invites and their one-time links, roles,
// deactivation, password resets; every change audited and told to the user.
let t: TestApp;
let admin: SignedIn;
const NEW_PASSWORD = 'a long and quiet river stone';

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAs(t, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const tokenOf = (link: TPasswordLink) => new URL(link.url).hash.replace('#token=', '');
const signIn = (email: string, password: string) => new Client(t.app).post('/api/auth/login', { email, password });

async function invite(overrides: Record<string, unknown> = {}) {
  const body = { email: `${unique('new')}@test.clinic`, firstName: 'Ada', lastName: unique('Lovelace'), role: 'nurse', ...overrides };
  const res = await admin.post('/api/admin/users', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TInviteResult;
}

const auditActions = async (entityId: string) =>
  await t.db.select({ action: auditEvents.action, actorId: auditEvents.actorId }).from(auditEvents).where(eq(auditEvents.entityId, entityId));
const noticesOf = async (userId: string) =>
  await t.db.select({ type: notifications.type, title: notifications.title }).from(notifications).where(eq(notifications.userId, userId));

describe('who may manage users', () => {
  it('only an admin, on every route; anonymous is 401', async () => {
    const target = await createUser(t.db, { role: 'nurse' });
    const calls = [
      ['GET', '/api/admin/users', undefined],
      ['POST', '/api/admin/users', { email: `${unique()}@test.clinic`, firstName: 'A', lastName: 'B', role: 'nurse' }],
      ['PUT', '/api/admin/users/role', { email: target.email, role: 'scribe' }],
      ['PUT', `/api/admin/users/${target.id}/role`, { role: 'scribe' }],
      ['PUT', `/api/admin/users/${target.id}/status`, { isActive: false }],
      ['POST', `/api/admin/users/${target.id}/password-link`, undefined],
    ] as const;
    for (const role of ['scheduler', 'nurse', 'scribe', 'supplier'] as const) {
      const client = await signInAs(t, role);
      for (const [method, url, body] of calls) expect((await client.request(method, url, body ?? {})).statusCode, `${role} ${method} ${url}`).toBe(403);
    }
    for (const [method, url, body] of calls) expect((await anonymous(t).request(method, url, body ?? {})).statusCode).toBe(401);
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ role: 'nurse', isActive: true });
  });
});

describe("the staff directory (a scheduler's User Management tab, issue 29)", () => {
  it('shows a scheduler names, roles and status, no email or sign-in time, searched by name only', async () => {
    const scheduler = await signInAs(t, 'scheduler');
    const word = unique('Dir');
    const nurse = await createUser(t.db, { role: 'nurse', lastName: word });
    const gone = await createUser(t.db, { role: 'scribe', lastName: word, isActive: false });
    const invited = (await invite({ lastName: `${word}x`, role: 'supplier' })).user;
    await signIn(nurse.email, TEST_PASSWORD);

    const res = await scheduler.get(`/api/admin/staff-directory?search=${word.toUpperCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json() as Record<string, unknown>[];
    expect(rows.map((r) => ZDirectoryEntry.strict().parse(r).id).sort()).toEqual([nurse.id, gone.id, invited.id].sort());
    expect(rows.find((r) => r.id === nurse.id)).toEqual({ id: nurse.id, firstName: nurse.firstName, lastName: word, role: 'nurse', status: 'active' });
    expect(rows.find((r) => r.id === gone.id)).toMatchObject({ role: 'scribe', status: 'deactivated' });
    expect(rows.find((r) => r.id === invited.id)).toMatchObject({ role: 'supplier', status: 'invited' });
    // Nothing the directory does not show leaves the server, and an email finds no one.
    expect(res.body).not.toContain(nurse.email);
    expect(res.body).not.toContain('lastSignInAt');
    expect((await scheduler.get(`/api/admin/staff-directory?search=${encodeURIComponent(nurse.email)}`)).json()).toEqual([]);
    // The same filters as the admin's list.
    expect((await scheduler.get(`/api/admin/staff-directory?search=${word}&status=deactivated`)).json().map((r: { id: string }) => r.id)).toEqual([gone.id]);
    expect((await scheduler.get(`/api/admin/staff-directory?search=${word}&role=nurse`)).json().map((r: { id: string }) => r.id)).toEqual([nurse.id]);
    expect((await scheduler.get('/api/admin/staff-directory?status=retired')).statusCode).toBe(400);
    expect((await scheduler.get('/api/admin/staff-directory?email=x')).statusCode).toBe(400);
    // An admin reads it too; nobody else.
    expect((await admin.get(`/api/admin/staff-directory?search=${word}`)).json()).toHaveLength(3);
    for (const role of ['nurse', 'scribe', 'supplier'] as const) {
      expect((await (await signInAs(t, role)).get('/api/admin/staff-directory')).statusCode, role).toBe(403);
    }
    expect((await anonymous(t).get('/api/admin/staff-directory')).statusCode).toBe(401);
  });

  it('refuses a scheduler every management action (403), changing nothing', async () => {
    const scheduler = await signInAs(t, 'scheduler');
    const target = await createUser(t.db, { role: 'nurse' });
    const email = `${unique('nope')}@test.clinic`;
    const refused = [
      await scheduler.get('/api/admin/users'),
      await scheduler.post('/api/admin/users', { email, firstName: 'A', lastName: 'B', role: 'nurse' }),
      await scheduler.put('/api/admin/users/role', { email: target.email, role: 'admin' }),
      await scheduler.put(`/api/admin/users/${target.id}/role`, { role: 'admin' }),
      await scheduler.put(`/api/admin/users/${scheduler.user.id}/role`, { role: 'admin' }),
      await scheduler.put(`/api/admin/users/${target.id}/status`, { isActive: false }),
      await scheduler.post(`/api/admin/users/${target.id}/password-link`),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 403));
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ role: 'nurse', isActive: true });
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await t.db.select().from(userTokens).where(eq(userTokens.userId, target.id))).toEqual([]);
    expect((await scheduler.get('/api/auth/user')).json().role).toBe('scheduler');
    expect(await auditActions(target.id)).toEqual([]);
  });
});

describe('the user list', () => {
  it('searches, filters by role and status, and shows the last sign-in', async () => {
    const word = unique('Zed');
    const nurse = await createUser(t.db, { role: 'nurse', lastName: word });
    const gone = await createUser(t.db, { role: 'scribe', lastName: word, isActive: false });
    await signIn(nurse.email, TEST_PASSWORD);
    const all = (await admin.get(`/api/admin/users?search=${word.toUpperCase()}`)).json().map((u: unknown) => ZAdminUser.parse(u));
    expect(all.map((u: { id: string }) => u.id).sort()).toEqual([nurse.id, gone.id].sort());
    expect(all.find((u: { id: string }) => u.id === nurse.id)?.lastSignInAt).toMatch(/^\d{4}-/);
    expect(all.find((u: { id: string }) => u.id === gone.id)).toMatchObject({ status: 'deactivated', lastSignInAt: null });
    expect((await admin.get(`/api/admin/users?search=${word}&role=scribe`)).json().map((u: { id: string }) => u.id)).toEqual([gone.id]);
    expect((await admin.get(`/api/admin/users?search=${word}&status=active`)).json().map((u: { id: string }) => u.id)).toEqual([nurse.id]);
    expect((await admin.get('/api/admin/users?status=retired')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/users?search=%25')).statusCode).toBe(200);
  });
});

describe('invite, set password, sign in', () => {
  it('creates an inactive account whose one-time link sets the password and opens it', async () => {
    const { user, link } = await invite({ role: 'scribe' });
    expect(user).toMatchObject({ status: 'invited', isActive: false, role: 'scribe' });
    expect(link.purpose).toBe('invite');
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(link.url).toMatch(/\/set-password#token=[A-Za-z0-9_-]{43}$/);
    // Not yet: no password.
    expect((await signIn(user.email, NEW_PASSWORD)).statusCode).toBe(401);
    // Only a hash of the token is stored.
    const stored = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));

    const token = tokenOf(link);
    expect((await anonymous(t).post('/api/auth/password-link', { token })).json()).toMatchObject({ email: user.email, purpose: 'invite' });
    const weak = await anonymous(t).post('/api/auth/set-password', { token, password: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].path).toBe('password');
    expect((await anonymous(t).post('/api/auth/set-password', { token, password: NEW_PASSWORD })).statusCode).toBe(204);

    const signedIn = await signIn(user.email, NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ id: user.id, role: 'scribe' });
    expect((await auditActions(user.id)).map((r) => r.action)).toEqual(expect.arrayContaining(['user.invite', 'user.invite_accepted', 'auth.login']));
    expect((await noticesOf(user.id)).map((n) => n.type)).toContain('account_changed');
  });

  it('refuses a reused link, an expired link and an unknown one, changing nothing', async () => {
    const { user, link } = await invite();
    const token = tokenOf(link);
    expect((await anonymous(t).post('/api/auth/set-password', { token, password: NEW_PASSWORD })).statusCode).toBe(204);
    const again = await anonymous(t).post('/api/auth/set-password', { token, password: 'another long password here' });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('link.used');
    expect((await signIn(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const late = await invite();
    await t.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, late.user.id));
    const expired = await anonymous(t).post('/api/auth/set-password', { token: tokenOf(late.link), password: NEW_PASSWORD });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('link.expired');
    expect((await anonymous(t).post('/api/auth/password-link', { token: tokenOf(late.link) })).statusCode).toBe(410);
    const [row] = await t.db.select().from(users).where(eq(users.id, late.user.id));
    expect(row).toMatchObject({ isActive: false, passwordHash: null });

    expect((await anonymous(t).post('/api/auth/set-password', { token: 'A'.repeat(43), password: NEW_PASSWORD })).statusCode).toBe(404);
    expect((await anonymous(t).post('/api/auth/set-password', { token: 'short', password: NEW_PASSWORD })).statusCode).toBe(400);
  });

  it('a new link spends the earlier one', async () => {
    const { user, link } = await invite();
    const fresh = await admin.post(`/api/admin/users/${user.id}/password-link`);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().purpose).toBe('invite');
    expect((await anonymous(t).post('/api/auth/set-password', { token: tokenOf(link), password: NEW_PASSWORD })).statusCode).toBe(410);
    expect((await anonymous(t).post('/api/auth/set-password', { token: tokenOf(fresh.json()), password: NEW_PASSWORD })).statusCode).toBe(204);
  });

  it('refuses case-variant and look-alike (NFKC) emails as duplicates', async () => {
    const local = unique('dup');
    await invite({ email: `${local}@test.clinic` });
    for (const email of [`${local.toUpperCase()}@Test.Clinic`, `${local}@ｔｅｓｔ.clinic`, `  ${local}@test.clinic `]) {
      const res = await admin.post('/api/admin/users', { email, firstName: 'A', lastName: 'B', role: 'nurse' });
      expect(res.statusCode, email).toBe(409);
      expect(res.json().code).toBe('user.emailTaken');
    }
    // However the row is written, the database refuses it too.
    await expect(t.db.insert(users).values({ email: `${local}@ｔｅｓｔ.ｃｌｉｎｉｃ`, role: 'nurse' })).rejects.toThrow();
    expect(
      await t.db
        .select({ id: users.id })
        .from(users)
        .where(sql`email ilike ${`%${local}%`}`),
    ).toHaveLength(1);
    const bad = await admin.post('/api/admin/users', { email: 'not an email', firstName: 'A', lastName: 'B', role: 'nurse' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('roles', () => {
  it('by id and by email (the spec form), audited, notified, and read by the session once the change is told', async () => {
    const nurse = await signInAs(t, 'nurse');
    expect((await nurse.get('/api/staff')).statusCode).toBe(403);
    const res = await admin.put('/api/admin/users/role', { email: nurse.user.email.toUpperCase(), role: 'scheduler' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role).toBe('scheduler');
    await eventsDelivered();
    expect((await nurse.get('/api/staff')).statusCode).toBe(200);
    expect((await admin.put(`/api/admin/users/${nurse.user.id}/role`, { role: 'supplier' })).json().role).toBe('supplier');
    await eventsDelivered();
    expect((await nurse.get('/api/staff')).statusCode).toBe(403);
    expect((await auditActions(nurse.user.id)).filter((r) => r.action === 'user.role_change')).toHaveLength(2);
    expect((await noticesOf(nurse.user.id)).filter((n) => n.title === 'Your role changed')).toHaveLength(2);
    expect((await admin.put('/api/admin/users/role', { email: `${unique()}@nowhere.test`, role: 'nurse' })).statusCode).toBe(404);
    expect((await admin.put('/api/admin/users/role', { email: '', role: 'nurse' })).statusCode).toBe(400);
    expect((await admin.put(`/api/admin/users/${nurse.user.id}/role`, { role: 'janitor' })).statusCode).toBe(400);
  });
});

describe('deactivation and password resets', () => {
  it("ends the user's session and live socket at once; reactivation does not revive them", async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const scribe = await signInAs(t, 'scribe');
    const live = await openLive(url, { cookie: scribe.cookie });
    const res = await admin.put(`/api/admin/users/${scribe.user.id}/status`, { isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('deactivated');
    expect(await live.closed).toBe(LIVE_CLOSE.sessionEnded);
    expect((await scribe.get('/api/auth/user')).statusCode).toBe(401);
    expect((await admin.put(`/api/admin/users/${scribe.user.id}/status`, { isActive: true })).json().status).toBe('active');
    expect((await scribe.get('/api/auth/user')).statusCode).toBe(401);
    expect((await auditActions(scribe.user.id)).map((r) => r.action)).toEqual(expect.arrayContaining(['user.deactivate', 'user.reactivate']));
  });

  it('an admin cannot deactivate herself; an invited user is not reactivated without a password', async () => {
    expect((await admin.put(`/api/admin/users/${admin.user.id}/status`, { isActive: false })).json().code).toBe('user.self');
    const { user } = await invite();
    const res = await admin.put(`/api/admin/users/${user.id}/status`, { isActive: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('user.notSetUp');
  });

  it('a reset link sets a new password once and ends the sessions held before', async () => {
    const nurse = await signInAs(t, 'nurse');
    const link = await admin.post(`/api/admin/users/${nurse.user.id}/password-link`);
    expect(link.json().purpose).toBe('reset');
    expect((await anonymous(t).post('/api/auth/set-password', { token: tokenOf(link.json()), password: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await nurse.get('/api/auth/user')).statusCode).toBe(401);
    expect((await signIn(nurse.user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(nurse.user.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await noticesOf(nurse.user.id)).map((n) => n.title)).toContain('Password reset link created');
  });
});

describe('the last active admin', () => {
  it('is kept: neither demoted nor deactivated, even by two admins at once', async () => {
    const own = await buildTestApp();
    try {
      const first = await signInAs(own, 'admin');
      const second = await signInAs(own, 'admin');
      // Each demotes the other at the same moment: one wins, the other is refused.
      const results = await Promise.all([
        first.put(`/api/admin/users/${second.user.id}/role`, { role: 'nurse' }),
        second.put(`/api/admin/users/${first.user.id}/role`, { role: 'nurse' }),
      ]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(200);
      // The loser lost admin rights with the winner's change, or was refused as the last admin.
      expect([403, 409]).toContain(codes[1]);
      const admins = await own.db
        .select()
        .from(users)
        .where(sql`role = 'admin' and is_active`);
      expect(admins).toHaveLength(1);
      const last = admins[0]!;
      const client = last.id === first.user.id ? first : second;
      const third = await signInAs(own, 'admin');
      await third.put(`/api/admin/users/${third.user.id}/role`, { role: 'nurse' });
      expect((await client.put(`/api/admin/users/${last.id}/role`, { role: 'scheduler' })).json().code).toBe('user.lastAdmin');
      expect((await client.put('/api/admin/users/role', { email: last.email, role: 'nurse' })).json().code).toBe('user.lastAdmin');
      const [still] = await own.db.select().from(users).where(eq(users.id, last.id));
      expect(still).toMatchObject({ role: 'admin', isActive: true });
    } finally {
      await own.close();
    }
  });
});
