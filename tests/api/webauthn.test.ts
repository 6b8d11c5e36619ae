import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZMyFactors, ZWebauthnSetup } from '#domain/second-factor';
import { userFactors } from '../../server/db/schema/second-factors.ts';
import { TEST_PASSWORD } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { softAuthenticator } from '../helpers/soft-authenticator.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';

/** Passkeys are bound to a host name: the app says where it is reached. */
const ORIGIN = 'http://localhost:5000';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: ORIGIN });
});
afterAll(async () => {
  await t?.close();
});

/** Registers a key for a signed-in user through the real routes; answers the key. */
async function registerKey(user: SignedIn, opts: Parameters<typeof softAuthenticator>[1] = {}) {
  const key = softAuthenticator(ORIGIN, opts);
  const begun = await user.post('/api/auth/factors/webauthn', {});
  expect(begun.statusCode).toBe(200);
  const { factorId, options } = ZWebauthnSetup.parse(begun.json());
  expect(options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none' });
  const confirmed = await user.post(`/api/auth/factors/webauthn/${factorId}/confirm`, {
    response: key.register(options as { challenge: string }),
    label: 'Laptop',
  });
  return { key, confirmed };
}

/** The password step, then the options the challenge gets for a passkey. */
async function passkeyChallenge(email: string) {
  const client = new Client(t.app);
  const login = await client.post('/api/auth/login', { email, password: TEST_PASSWORD });
  expect(login.json()).toEqual({ secondFactor: { methods: ['webauthn', 'recovery'] } });
  const cookie = `sid_2fa=${login.cookies.find((c) => c.name === 'sid_2fa')!.value}`;
  const options = (await client.request('POST', '/api/auth/second-factor/webauthn', {}, { cookie })).json().options as { challenge: string };
  return { client, cookie, options };
}

describe('passkeys and security keys (WebAuthn) on the server', () => {
  it('registers a passkey, then signs in with it; an answer is taken once', async () => {
    const nurse = await signInAs(t, 'nurse');
    const { key, confirmed } = await registerKey(nurse);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().recoveryCodes).toHaveLength(10);
    const [row] = await t.db.select().from(userFactors).where(eq(userFactors.userId, nurse.user.id));
    expect(row).toMatchObject({ kind: 'webauthn', label: 'Laptop', passkey: true, credentialId: key.credentialId, webauthnChallenge: null });
    expect(ZMyFactors.parse((await nurse.get('/api/auth/factors')).json()).factors).toMatchObject([{ kind: 'webauthn', label: 'Laptop' }]);

    const { client, cookie, options } = await passkeyChallenge(nurse.user.email);
    const answer = key.authenticate(options);
    const passed = await client.request('POST', '/api/auth/second-factor', { method: 'webauthn', response: answer }, { cookie });
    expect(passed.statusCode).toBe(200);
    expect((await client.get('/api/auth/user')).json().secondFactor.status).toBe('enrolled');

    // The same answer for a new sign-in: its challenge is not this one.
    const again = await passkeyChallenge(nurse.user.email);
    const replay = await again.client.request('POST', '/api/auth/second-factor', { method: 'webauthn', response: answer }, { cookie: again.cookie });
    expect(replay.json().code).toBe('signIn.badCode');
    // A fresh answer to a challenge already answered wrongly: the key must be asked again.
    const late = await again.client.request(
      'POST',
      '/api/auth/second-factor',
      { method: 'webauthn', response: key.authenticate(again.options) },
      { cookie: again.cookie },
    );
    expect(late.json().code).toBe('signIn.badCode');
  });

  it('refuses a passkey that did not verify its user, an answer for another site, and a key the user does not have', async () => {
    const scribe = await signInAs(t, 'scribe');
    const { confirmed } = await registerKey(scribe, { verifiesUser: false });
    expect(confirmed.json().code).toBe('signIn.badCode');
    expect(await t.db.select().from(userFactors).where(eq(userFactors.userId, scribe.user.id))).toEqual([expect.objectContaining({ confirmedAt: null })]);
    // A security key (not discoverable) need only be touched.
    const { key, confirmed: plain } = await registerKey(scribe, { verifiesUser: false, discoverable: false });
    expect(plain.statusCode).toBe(200);

    const elsewhere = softAuthenticator('http://evil.example');
    const first = await passkeyChallenge(scribe.user.email);
    const wrongSite = await first.client.request(
      'POST',
      '/api/auth/second-factor',
      { method: 'webauthn', response: elsewhere.authenticate(first.options) },
      { cookie: first.cookie },
    );
    expect(wrongSite.json().code).toBe('signIn.badCode');
    const second = await passkeyChallenge(scribe.user.email);
    const right = await second.client.request(
      'POST',
      '/api/auth/second-factor',
      { method: 'webauthn', response: key.authenticate(second.options) },
      { cookie: second.cookie },
    );
    expect(right.statusCode).toBe(200);
  });

  it('proves a sensitive step with a passkey, bound to the session that asked', async () => {
    const scheduler = await signInAs(t, 'scheduler');
    const { key } = await registerKey(scheduler);
    expect(
      (await scheduler.post('/api/auth/recovery-codes', { proof: { method: 'webauthn', response: key.authenticate({ challenge: 'x' }) } })).json().code,
    ).toBe('signIn.badCode');
    const options = (await scheduler.post('/api/auth/proof/webauthn')).json().options as { challenge: string };
    const renewed = await scheduler.post('/api/auth/recovery-codes', { proof: { method: 'webauthn', response: key.authenticate(options) } });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    const nobody = await signInAs(t, 'nurse');
    expect((await nobody.post('/api/auth/proof/webauthn')).json().code).toBe('secondFactor.noneEnrolled');
    expect((await new Client(t.app).post('/api/auth/second-factor/webauthn')).json().code).toBe('signIn.noChallenge');
  });
});
