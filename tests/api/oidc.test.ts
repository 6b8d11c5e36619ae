import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTotpSetup } from '#domain/second-factor';
import { users } from '../../server/db/schema/auth.ts';
import { provesSecondFactor } from '../../server/modules/auth/oidc.ts';
import { totpCodeAt } from '../../server/modules/auth/totp.ts';
import { createUser, unique } from '../helpers/factories.ts';
import { startFakeIdentityProvider } from '../helpers/fake-identity-provider.ts';
import { signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let idp: Awaited<ReturnType<typeof startFakeIdentityProvider>>;

beforeAll(async () => {
  idp = await startFakeIdentityProvider('clinic-ehr');
  t = await buildTestApp({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: 'clinic-ehr', OIDC_CLIENT_SECRET: 'secret' });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** Follows the browser's path: /api/login -> provider -> callback, carrying the flow cookie. */
async function signInThroughProvider(email: string, beforeCallback?: (client: Client) => Promise<void>, next?: string) {
  idp.state.nextEmail = email;
  const client = new Client(t.app);
  const start = await client.get(next ? `/api/login?next=${encodeURIComponent(next)}` : '/api/login');
  expect(start.statusCode).toBe(302);
  const flow = start.cookies.find((c) => c.name === 'oidc_flow')!;
  expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  const atProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location')!);
  await beforeCallback?.(client);
  const held = client.cookie ? `sid=${client.cookie}; ` : '';
  const done = await client.get(`${callback.pathname}${callback.search}`, { cookie: `${held}oidc_flow=${encodeURIComponent(flow.value)}` });
  return { client, done };
}

describe('sign-in through the clinic identity provider', () => {
  it('sends /api/login to the provider with PKCE and state', async () => {
    const res = await new Client(t.app).get('/api/login');
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/api\/auth\/oidc\/callback$/);
  });

  it('signs in an active user the clinic created, matched by email', async () => {
    const user = await createUser(t.db, { role: 'scribe' });
    const { client, done } = await signInThroughProvider(user.email.toUpperCase());
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/');
    const me = await client.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, role: 'scribe' });
  });

  it('returns to the page asked for before signing in (issue 29)', async () => {
    const user = await createUser(t.db, { role: 'nurse' });
    const { done } = await signInThroughProvider(user.email, undefined, '/notes?tab=mine');
    expect([done.statusCode, done.headers.location]).toEqual([302, '/notes?tab=mine']);
  });

  it('ends the session the browser held before, so a session id never carries over', async () => {
    const user = await createUser(t.db);
    let heldToken = '';
    // Meanwhile the browser got a session another way (another tab, say).
    const { client, done } = await signInThroughProvider(user.email, async (browser) => {
      heldToken = (await signInAs(t, 'nurse')).cookie!;
      browser.cookie = heldToken;
    });
    expect(done.statusCode).toBe(302);
    expect(client.cookie).not.toBe(heldToken);
    expect((await new Client(t.app, heldToken).get('/api/auth/user')).statusCode).toBe(401);
    expect((await client.get('/api/auth/user')).json().id).toBe(user.id);
  });

  it('does not let in an email nobody created, and creates no account for it', async () => {
    const email = `${unique('stranger')}@test.clinic`;
    const { client, done } = await signInThroughProvider(email);
    expect(done.statusCode).toBe(403);
    expect(client.cookie).toBeNull();
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('does not let in a deactivated user', async () => {
    const user = await createUser(t.db, { isActive: false });
    const { done } = await signInThroughProvider(user.email);
    expect(done.statusCode).toBe(403);
  });

  it('refuses a callback without the flow cookie (a forged or replayed redirect)', async () => {
    const res = await new Client(t.app).get('/api/auth/oidc/callback?code=abc&state=def');
    expect(res.statusCode).toBe(400);
  });
});

describe("a second factor after the provider's sign-in (issue 33)", () => {
  /** A user with an authenticator app of ours, enrolled through a password session. */
  async function userWithTotp(role: 'nurse' | 'scribe') {
    const signedIn = await signInAs(t, role);
    const setup = ZTotpSetup.parse((await signedIn.post('/api/auth/factors/totp', {})).json());
    await signedIn.post(`/api/auth/factors/totp/${setup.factorId}/confirm`, { code: totpCodeAt(setup.secret, t.clock.now()) });
    t.clock.advance(30_000);
    return { user: signedIn.user, secret: setup.secret };
  }

  it('asks for it when the provider does not say it did one (no amr): no session until the code', async () => {
    const { user, secret } = await userWithTotp('nurse');
    idp.state.amr = ['pwd'];
    const { client, done } = await signInThroughProvider(user.email, undefined, '/notes');
    idp.state.amr = undefined;
    expect([done.statusCode, done.headers.location]).toEqual([302, '/login?step=second-factor&next=%2Fnotes']);
    expect(client.cookie).toBeNull();
    const challenge = done.cookies.find((c) => c.name === 'sid_2fa')!;
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    const passed = await client.request(
      'POST',
      '/api/auth/second-factor',
      { method: 'totp', code: totpCodeAt(secret, t.clock.now()) },
      { cookie: `sid_2fa=${challenge.value}` },
    );
    expect(passed.statusCode).toBe(200);
    expect((await client.get('/api/auth/user')).json()).toMatchObject({ id: user.id, secondFactor: { status: 'enrolled' } });
  });

  it("takes the provider's word when its token proves a second factor, and that counts for a policy that requires one", async () => {
    const { user } = await userWithTotp('nurse');
    idp.state.amr = ['pwd', 'otp'];
    const withOurs = await signInThroughProvider(user.email);
    expect([withOurs.done.statusCode, withOurs.done.headers.location]).toEqual([302, '/']);

    // Someone with no factor of ours, whose role requires one at once: the provider's own counts.
    const admin = await signInAs(t, 'admin');
    const current = (await admin.get('/api/admin/settings/second-factor')).json() as Record<string, { mode: string; graceDays: number }>;
    const body = Object.fromEntries(Object.entries(current).map(([role, p]) => [role, { mode: p.mode, graceDays: p.graceDays }]));
    expect((await admin.put('/api/admin/settings/second-factor', { ...body, scribe: { mode: 'required', graceDays: 0 } })).statusCode).toBe(200);
    const scribe = await createUser(t.db, { role: 'scribe' });
    const proven = await signInThroughProvider(scribe.email);
    expect((await proven.client.get('/api/auth/user')).json().secondFactor.status).toBe('enrolled');
    expect((await proven.client.get('/api/notes')).statusCode).toBe(200);
    idp.state.amr = undefined;
    const unproven = await signInThroughProvider(scribe.email);
    expect((await unproven.client.get('/api/notes')).json().code).toBe('auth.secondFactorEnrolment');
    await admin.put('/api/admin/settings/second-factor', body);
  });

  it('reads amr as RFC 8176 names it', () => {
    expect(provesSecondFactor(['mfa'])).toBe(true);
    expect(provesSecondFactor(['pwd', 'hwk'])).toBe(true);
    expect(provesSecondFactor(['pwd'])).toBe(false);
    expect(provesSecondFactor(['otp'])).toBe(false);
    expect(provesSecondFactor('mfa')).toBe(false);
    expect(provesSecondFactor(undefined)).toBe(false);
  });
});
