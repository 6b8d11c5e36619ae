import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE } from '#domain/live-events';
import { RECOVERY_CODE_SHAPE, ZMyFactors, ZStoredSecondFactorPolicy, ZTotpSetup, type TSecondFactorPolicy } from '#domain/second-factor';
import { auditEvents, users } from '../../server/db/schema/auth.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { recoveryCodes, userFactors } from '../../server/db/schema/second-factors.ts';
import { totpCodeAt } from '../../server/modules/auth/totp.ts';
import { createUser, TEST_PASSWORD } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';
import { openLive } from '../helpers/live-client.ts';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({}, { secondFactorPolicy: 'asMigrated' });
  admin = await signInAs(t, 'admin');
});
afterAll(async () => {
  await t?.close();
});

/** The next TOTP time step: a code a sign-in has not taken yet. */
const nextStep = () => t.clock.advance(30_000);
const codeOf = (secret: string) => totpCodeAt(secret, t.clock.now());

/** Adds an authenticator app to a signed-in user; answers its secret and the recovery codes shown once. */
async function enrolTotp(client: Client) {
  const setup = ZTotpSetup.parse((await client.post('/api/auth/factors/totp', {})).json());
  const confirmedWith = codeOf(setup.secret);
  const confirmed = await client.post(`/api/auth/factors/totp/${setup.factorId}/confirm`, { code: confirmedWith, label: 'My phone' });
  expect(confirmed.statusCode).toBe(200);
  return { secret: setup.secret, confirmedWith, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

/** The password step of a sign-in: answers the response and the challenge cookie it set, if any. */
async function passwordStep(email: string) {
  const client = new Client(t.app);
  const res = await client.post('/api/auth/login', { email, password: TEST_PASSWORD });
  const challenge = res.cookies.find((c) => c.name === 'sid_2fa');
  return { client, res, challenge };
}

const secondStep = (client: Client, challenge: string | undefined, proof: object) =>
  client.request('POST', '/api/auth/second-factor', proof, challenge ? { cookie: `sid_2fa=${challenge}` } : {});

const auditActionsOf = async (userId: string) =>
  (await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, userId))).map((r) => r.action);

async function setPolicy(changes: Partial<TSecondFactorPolicy>) {
  const current = ZStoredSecondFactorPolicy.parse((await admin.get('/api/admin/settings/second-factor')).json());
  const body = Object.fromEntries(
    Object.entries(current).map(([role, p]) => [role, { mode: p.mode, graceDays: p.graceDays, ...changes[role as keyof TSecondFactorPolicy] }]),
  );
  const res = await admin.put('/api/admin/settings/second-factor', body);
  expect(res.statusCode).toBe(200);
  return ZStoredSecondFactorPolicy.parse(res.json());
}

describe('an authenticator app (TOTP) and recovery codes', () => {
  it('enrols with a QR code and a text key; the secret is stored sealed and the codes hashed', async () => {
    const nurse = await signInAs(t, 'nurse');
    const setup = await nurse.post('/api/auth/factors/totp', {});
    expect(setup.statusCode).toBe(200);
    const { secret, uri, qrSvg, factorId } = ZTotpSetup.parse(setup.json());
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.*secret=${secret}`));
    expect(qrSvg).toMatch(/^<svg/);

    const wrong = await nurse.post(`/api/auth/factors/totp/${factorId}/confirm`, { code: totpCodeAt(secret, new Date(t.clock.now().getTime() + 600_000)) });
    expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'signIn.badCode']);
    expect((await nurse.post(`/api/auth/factors/totp/${factorId}/confirm`, { code: '12345' })).statusCode).toBe(400);

    const confirmed = await nurse.post(`/api/auth/factors/totp/${factorId}/confirm`, { code: codeOf(secret), label: 'Work phone' });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_SHAPE);

    const [row] = await t.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    expect(row!.totpSecret).not.toContain(secret);
    expect(row!.label).toBe('Work phone');
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, nurse.user.id));
    expect(stored.map((r) => r.codeHash)).not.toContain(codes[0]);
    const mine = ZMyFactors.parse((await nurse.get('/api/auth/factors')).json());
    expect(mine).toMatchObject({ recoveryCodesLeft: 10, enrolment: { status: 'enrolled' }, factors: [{ kind: 'totp', label: 'Work phone' }] });
    expect(JSON.stringify(mine)).not.toContain(secret);
    expect(await auditActionsOf(nurse.user.id)).toEqual(
      expect.arrayContaining(['auth.factor_enrolled', 'auth.recovery_codes_issued', 'auth.second_factor_failed']),
    );
  });

  it('gives no session for the password alone; the code makes one, once: a replayed code is refused', async () => {
    const nurse = await signInAs(t, 'nurse');
    const { secret, confirmedWith } = await enrolTotp(nurse);
    const { client, res, challenge } = await passwordStep(nurse.user.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ secondFactor: { methods: ['totp', 'recovery'] } });
    expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(challenge).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' });
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);

    // The code the app was confirmed with is spent: the same code is refused (sent as it was, not
    // computed again: the test clock follows real time, and a busy machine may cross a step here).
    const replay = await secondStep(client, challenge!.value, { method: 'totp', code: confirmedWith });
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'signIn.badCode']);
    nextStep();
    const code = codeOf(secret);
    const passed = await secondStep(client, challenge!.value, { method: 'totp', code });
    expect(passed.statusCode).toBe(200);
    expect(passed.json()).toMatchObject({ id: nurse.user.id });
    expect((await client.get('/api/auth/user')).json()).toMatchObject({ id: nurse.user.id, secondFactor: { status: 'enrolled' } });

    // The challenge is spent, and the code cannot open another sign-in either.
    expect((await secondStep(new Client(t.app), challenge!.value, { method: 'totp', code })).json().code).toBe('signIn.noChallenge');
    const again = await passwordStep(nurse.user.email);
    expect((await secondStep(again.client, again.challenge!.value, { method: 'totp', code })).json().code).toBe('signIn.badCode');
    expect((await secondStep(new Client(t.app), undefined, { method: 'totp', code })).json().code).toBe('signIn.noChallenge');
    expect(await auditActionsOf(nurse.user.id)).toEqual(expect.arrayContaining(['auth.second_factor_required', 'auth.second_factor_passed', 'auth.login']));
  });

  it('takes each recovery code once', async () => {
    const scribe = await signInAs(t, 'scribe');
    const { recoveryCodes: codes } = await enrolTotp(scribe);
    const first = await passwordStep(scribe.user.email);
    // Typed loosely (upper case, no dashes), it is the same code.
    const typed = codes[3]!.toUpperCase().replaceAll('-', ' ');
    expect((await secondStep(first.client, first.challenge!.value, { method: 'recovery', code: typed })).statusCode).toBe(200);
    const second = await passwordStep(scribe.user.email);
    const reused = await secondStep(second.client, second.challenge!.value, { method: 'recovery', code: codes[3] });
    expect(reused.json().code).toBe('signIn.badCode');
    expect((await secondStep(second.client, second.challenge!.value, { method: 'recovery', code: codes[4] })).statusCode).toBe(200);
    expect(ZMyFactors.parse((await second.client.get('/api/auth/factors')).json()).recoveryCodesLeft).toBe(8);
    expect((await auditActionsOf(scribe.user.id)).filter((a) => a === 'auth.recovery_code_used')).toHaveLength(2);
  });

  it('throttles wrong codes like passwords: five lock the pair, and the sign-in must start over', async () => {
    const nurse = await signInAs(t, 'nurse');
    const { secret } = await enrolTotp(nurse);
    const { client, challenge } = await passwordStep(nurse.user.email);
    for (let i = 0; i < 5; i++) {
      const res = await secondStep(client, challenge!.value, {
        method: 'totp',
        code: totpCodeAt(secret, new Date(t.clock.now().getTime() + 3_600_000 + i * 60_000)),
      });
      expect(res.json().code).toBe('signIn.badCode');
    }
    nextStep();
    const locked = await secondStep(client, challenge!.value, { method: 'totp', code: codeOf(secret) });
    expect([locked.statusCode, locked.json().code]).toEqual([401, 'signIn.noChallenge']);
    const password = await passwordStep(nurse.user.email);
    expect([password.res.statusCode, password.res.json().code]).toEqual([429, 'signIn.throttled']);
  });

  it('asks a fresh code to add another factor, to renew recovery codes and to remove a factor', async () => {
    const nurse = await signInAs(t, 'nurse');
    const { secret, recoveryCodes: codes } = await enrolTotp(nurse);
    expect((await nurse.post('/api/auth/factors/totp', {})).json().code).toBe('signIn.badCode');
    nextStep();
    const another = await nurse.post('/api/auth/factors/totp', { proof: { method: 'totp', code: codeOf(secret) } });
    expect(another.statusCode).toBe(200);

    expect((await nurse.post('/api/auth/recovery-codes', {})).statusCode).toBe(400);
    const renewed = await nurse.post('/api/auth/recovery-codes', { proof: { method: 'recovery', code: codes[0] } });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    // The old set stopped working.
    expect((await nurse.post('/api/auth/recovery-codes', { proof: { method: 'recovery', code: codes[1] } })).json().code).toBe('signIn.badCode');

    const [factor] = ZMyFactors.parse((await nurse.get('/api/auth/factors')).json()).factors;
    nextStep();
    const removed = await nurse.post(`/api/auth/factors/${factor!.id}/remove`, { proof: { method: 'totp', code: codeOf(secret) } });
    expect(removed.statusCode).toBe(204);
    expect(ZMyFactors.parse((await nurse.get('/api/auth/factors')).json())).toMatchObject({
      factors: [],
      recoveryCodesLeft: 0,
      enrolment: { status: 'optional' },
    });
    const [row] = await t.db.select({ at: users.secondFactorAt }).from(users).where(eq(users.id, nurse.user.id));
    expect(row!.at).toBeNull();
    // With no factor left, the password alone signs in again.
    expect((await passwordStep(nurse.user.email)).res.statusCode).toBe(200);
    expect(await auditActionsOf(nurse.user.id)).toContain('auth.factor_removed');
  });
});

describe('a burst of codes sent at once is held to the same limit as codes sent one by one', () => {
  const BURST = 100;
  const wrongCode = (secret: string, i: number) => totpCodeAt(secret, new Date(t.clock.now().getTime() + 7_200_000 + i * 30_000));
  const checkedOf = async (userId: string) => (await auditActionsOf(userId)).filter((a) => a === 'auth.second_factor_failed').length;

  it('a fresh proof (new recovery codes): at most five of a hundred wrong codes are checked, the rest refused as throttled', async () => {
    const scheduler = await signInAs(t, 'scheduler');
    const { secret } = await enrolTotp(scheduler);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => scheduler.post('/api/auth/recovery-codes', { proof: { method: 'totp', code: wrongCode(secret, i) } })),
    );
    const codes = answers.map((r) => r.json().code as string);
    expect(codes.filter((c) => c === 'signIn.badCode').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c !== 'signIn.badCode').every((c) => c === 'signIn.throttled')).toBe(true);
    expect(await checkedOf(scheduler.user.id)).toBeLessThanOrEqual(5);
    // The right code now waits out the lock too: the pair is spent.
    nextStep();
    expect((await scheduler.post('/api/auth/recovery-codes', { proof: { method: 'totp', code: codeOf(secret) } })).json().code).toBe('signIn.throttled');
  });

  it("the sign-in's second step from a known address: at most five of a hundred wrong codes are checked", async () => {
    const scribe = await signInAs(t, 'scribe');
    const { secret } = await enrolTotp(scribe);
    const { client, challenge } = await passwordStep(scribe.user.email);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => secondStep(client, challenge!.value, { method: 'totp', code: wrongCode(secret, i) })),
    );
    expect(answers.every((r) => r.statusCode !== 200)).toBe(true);
    expect(answers.filter((r) => r.json().code === 'signIn.badCode').length).toBeLessThanOrEqual(5);
    expect(await checkedOf(scribe.user.id)).toBeLessThanOrEqual(5);
  });

  it('a hundred wrong passwords at once: at most five are checked', async () => {
    const user = await createUser(t.db);
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => new Client(t.app).post('/api/auth/login', { email: user.email, password: 'guess-guess' })),
    );
    expect(answers.filter((r) => r.json().code === 'signIn.invalidCredentials').length).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.statusCode !== 401).every((r) => r.json().code === 'signIn.throttled')).toBe(true);
    const failed = await t.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, 'auth.login_failed')));
    expect(failed.length).toBeLessThanOrEqual(5);
  });
});

describe('the policy per role', () => {
  it('requires admins by default; only an admin reads or sets it; bad values are refused and change nothing', async () => {
    const policy = ZStoredSecondFactorPolicy.parse((await admin.get('/api/admin/settings/second-factor')).json());
    expect(policy.admin).toMatchObject({ mode: 'required', graceDays: 7, requiredSince: expect.any(String) });
    expect(policy.nurse).toMatchObject({ mode: 'optional', graceDays: 7, requiredSince: null });
    const scheduler = await signInAs(t, 'scheduler');
    expect((await scheduler.get('/api/admin/settings/second-factor')).statusCode).toBe(403);
    expect((await scheduler.put('/api/admin/settings/second-factor', policy)).statusCode).toBe(403);
    const valid = Object.fromEntries(Object.entries(policy).map(([role, p]) => [role, { mode: p.mode, graceDays: p.graceDays }]));
    const refused = await admin.put('/api/admin/settings/second-factor', { ...valid, nurse: { mode: 'sometimes', graceDays: 91 } });
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['nurse.graceDays', 'nurse.mode']);
    expect((await admin.put('/api/admin/settings/second-factor', { admin: valid.admin })).statusCode).toBe(400);
    expect(ZStoredSecondFactorPolicy.parse((await admin.get('/api/admin/settings/second-factor')).json())).toEqual(policy);
  });

  it('once required and the grace has passed, the user can do nothing but enrol; enrolling opens everything', async () => {
    await setPolicy({ supplier: { mode: 'required', graceDays: 0 } });
    const supplier = await signInAs(t, 'supplier');
    const me = await supplier.get('/api/auth/user');
    expect(me.json().secondFactor).toMatchObject({ status: 'overdue', deadline: expect.any(String) });
    const refused = await supplier.get('/api/supplies/summary');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'auth.secondFactorEnrolment']);
    expect((await supplier.get('/api/notifications')).json().code).toBe('auth.secondFactorEnrolment');
    // No live events either, until she enrols.
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await expect(openLive(url, { cookie: supplier.cookie })).rejects.toMatchObject({ status: 403 });
    const { secret } = await enrolTotp(supplier);
    (await openLive(url, { cookie: supplier.cookie })).close();
    expect((await supplier.get('/api/supplies/summary')).statusCode).toBe(200);

    // The last factor cannot go while the role requires one.
    const [factor] = ZMyFactors.parse((await supplier.get('/api/auth/factors')).json()).factors;
    nextStep();
    const kept = await supplier.post(`/api/auth/factors/${factor!.id}/remove`, { proof: { method: 'totp', code: codeOf(secret) } });
    expect([kept.statusCode, kept.json().code]).toEqual([409, 'secondFactor.lastRequired']);
    await setPolicy({ supplier: { mode: 'optional', graceDays: 7 } });
  });

  it('a hold that begins while her socket is open closes it, as a deactivation does (issue 47)', async () => {
    const before = ZStoredSecondFactorPolicy.parse((await admin.get('/api/admin/settings/second-factor')).json()).scheduler;
    const scheduler = await signInAs(t, 'scheduler');
    const address = t.app.server.address();
    const url = address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const live = await openLive(url, { cookie: scheduler.cookie });
    await setPolicy({ scheduler: { mode: 'required', graceDays: 0 } });
    expect(await live.closed).toBe(LIVE_CLOSE.sessionEnded);
    await expect(openLive(url, { cookie: scheduler.cookie })).rejects.toMatchObject({ status: 403 });
    await setPolicy({ scheduler: { mode: before.mode, graceDays: before.graceDays } });
  });

  it('counts the grace from when the role became required, or from the account when it is newer', async () => {
    const before = await createUser(t.db, { role: 'scribe', createdAt: new Date(t.clock.now().getTime() - 30 * 86_400_000) });
    const policy = await setPolicy({ scribe: { mode: 'required', graceDays: 3 } });
    const requiredSince = Date.parse(policy.scribe.requiredSince!);
    const signIn = async (email: string) => {
      const { client, res } = await passwordStep(email);
      expect(res.statusCode).toBe(200);
      return (await client.get('/api/auth/user')).json().secondFactor;
    };
    expect(await signIn(before.email)).toEqual({ status: 'due', deadline: new Date(requiredSince + 3 * 86_400_000).toISOString() });
    // Saving the policy again keeps the date: nobody's clock restarts.
    expect((await setPolicy({ scribe: { mode: 'required', graceDays: 3 } })).scribe.requiredSince).toBe(policy.scribe.requiredSince);

    t.clock.advance(4 * 86_400_000);
    const newcomer = await createUser(t.db, { role: 'scribe', createdAt: t.clock.now() });
    expect((await signIn(before.email)).status).toBe('overdue');
    expect(await signIn(newcomer.email)).toEqual({ status: 'due', deadline: new Date(newcomer.createdAt.getTime() + 3 * 86_400_000).toISOString() });
    // The admin's session went idle while the clock moved.
    admin = await signInAs(t, 'admin');
    await setPolicy({ scribe: { mode: 'optional', graceDays: 7 } });
  });
});

describe("an admin resets another user's factors", () => {
  it('only after a fresh second factor of her own; the user is told, her sessions end, she enrols again', async () => {
    const owner = await signInAs(t, 'admin');
    const nurse = await signInAs(t, 'nurse');
    await enrolTotp(nurse);
    const none = await owner.post(`/api/admin/users/${nurse.user.id}/factors/reset`, { proof: { method: 'totp', code: '123456' } });
    expect([none.statusCode, none.json().code]).toEqual([409, 'secondFactor.noneEnrolled']);

    const { secret } = await enrolTotp(owner);
    nextStep();
    const wrong = await owner.post(`/api/admin/users/${nurse.user.id}/factors/reset`, { proof: { method: 'totp', code: totpCodeAt(secret, new Date(0)) } });
    expect(wrong.json().code).toBe('signIn.badCode');
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, nurse.user.id))).toHaveLength(1);
    expect((await nurse.post(`/api/admin/users/${owner.user.id}/factors/reset`, { proof: { method: 'totp', code: codeOf(secret) } })).statusCode).toBe(403);

    const done = await owner.post(`/api/admin/users/${nurse.user.id}/factors/reset`, { proof: { method: 'totp', code: codeOf(secret) } });
    expect(done.statusCode).toBe(204);
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, nurse.user.id))).toHaveLength(0);
    expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, nurse.user.id))).toHaveLength(0);
    expect((await nurse.get('/api/auth/user')).statusCode).toBe(401);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, nurse.user.id), eq(notifications.type, 'account_changed')));
    expect(told.map((n) => n.title)).toContain('Your second factors were reset');
    expect(await auditActionsOf(nurse.user.id)).toContain('user.factors_reset');
    expect((await passwordStep(nurse.user.email)).res.statusCode).toBe(200);
    const unknown = await owner.post('/api/admin/users/00000000-0000-4000-8000-000000000000/factors/reset', {
      proof: { method: 'totp', code: codeOf(secret) },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
