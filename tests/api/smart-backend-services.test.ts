import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { apiClients, apiTokens } from '../../server/db/schema/api-clients.ts';
import { insertPatient } from '../helpers/factories.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// SMART Backend Services (issue 53): a registered system proves who it is with a JWT signed by
// its private key (private_key_jwt), checked against the public keys it registered or publishes;
// no secret travels. Every rule of the assertion is tried one at a time against a real key.

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
let t: TestApp;
let admin: SignedIn;
let tokenUrl: string;
let rsa: { privateKey: CryptoKey; jwk: JWK };
let ec: { privateKey: CryptoKey; jwk: JWK };
let stranger: { privateKey: CryptoKey; jwk: JWK };
let keyServer: Server;
let keyServerUrl: string;

async function keyPair(alg: 'RS384' | 'ES384' | 'RS256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid } };
}

async function createKeyClient(keys: { jwks: { keys: JWK[] } } | { jwksUrl: string }) {
  const res = await admin.post('/api/admin/api-clients', {
    name: 'Hospital interface',
    actingUserId: admin.user.id,
    scopes: ['system/*.read'],
    authMethod: 'private_key_jwt',
    ...keys,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; clientSecret: string | null; authMethod: string; keyIds: string[]; jwksUrl: string | null };
}

/** A well-formed assertion for `clientId`; each test changes one thing. */
function assertion(
  clientId: string,
  key: { privateKey: CryptoKey; jwk: JWK },
  change: { alg?: string; claims?: Record<string, unknown>; noJti?: boolean } = {},
) {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const claims = { iss: clientId, sub: clientId, aud: tokenUrl, exp: now + 240, ...(change.noJti ? {} : { jti: randomUUID() }), ...change.claims };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: change.alg ?? (key.jwk.kty === 'RSA' ? 'RS384' : 'ES384'), kid: key.jwk.kid!, typ: 'JWT' })
    .sign(key.privateKey);
}

const tokenRequest = (fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    payload: new URLSearchParams({ grant_type: 'client_credentials', ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const byAssertion = (signed: string, more: Record<string, string> = {}) =>
  tokenRequest({ client_assertion_type: ASSERTION_TYPE, client_assertion: signed, scope: 'system/*.rs', ...more });

const tokensOf = async (clientId: string) => (await t.db.select().from(apiTokens).where(eq(apiTokens.clientId, clientId))).length;
const deniedTokens = async () =>
  Number((await queryRows<{ n: string }>(t.db, sql`select count(*) as n from audit_events where action = 'fhir.token' and outcome = 'denied'`))[0]!.n);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAs(t, 'admin');
  [rsa, ec, stranger] = [await keyPair('RS384', 'rsa-1'), await keyPair('ES384', 'ec-1'), await keyPair('RS384', 'rsa-1')];
  const discovery = await anonymous(t).get('/fhir/R4/.well-known/smart-configuration');
  tokenUrl = discovery.json().token_endpoint;
  // A client's own server publishing its keys, as a JWKS URL (loopback is taken besides https).
  keyServer = createServer((request, response) => {
    if (request.url !== '/jwks.json') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [ec.jwk] }));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
  keyServerUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  keyServer?.close();
  await t?.close();
});

describe('discovery', () => {
  it('advertises private_key_jwt with RS384 and ES384 beside the secret, and the asymmetric capability', async () => {
    const smart = (await anonymous(t).get('/fhir/R4/.well-known/smart-configuration')).json();
    expect(smart.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['private_key_jwt', 'client_secret_basic', 'client_secret_post']));
    expect(smart.token_endpoint_auth_signing_alg_values_supported).toEqual(['RS384', 'ES384']);
    expect(smart.capabilities).toEqual(expect.arrayContaining(['client-confidential-asymmetric', 'permission-v2']));
  });
});

describe('a client that signs with its key', () => {
  it('is made with its public keys and no secret; a signed assertion (RS384 or ES384) gets a token that reads FHIR', async () => {
    const client = await createKeyClient({ jwks: { keys: [rsa.jwk, ec.jwk] } });
    expect(client).toMatchObject({ clientSecret: null, authMethod: 'private_key_jwt', keyIds: ['rsa-1', 'ec-1'], jwksUrl: null });
    const [row] = await t.db.select().from(apiClients).where(eq(apiClients.id, client.id));
    expect(row!.secretHash).toBeNull();
    const listed = (await admin.get('/api/admin/api-clients')).json().find((c: { id: string }) => c.id === client.id);
    expect(listed).toMatchObject({ authMethod: 'private_key_jwt', keyIds: ['rsa-1', 'ec-1'] });

    for (const key of [rsa, ec]) {
      const res = await byAssertion(await assertion(client.id, key));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'system/*.rs' });
      await insertPatient(t.db);
      const read = await t.app.inject({ method: 'GET', url: '/fhir/R4/Patient', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(read.statusCode, read.body).toBe(200);
      expect(fhirErrors(read.json())).toEqual([]);
    }
    // The client id may also be sent beside the assertion, as long as it is the assertion's.
    const withId = await byAssertion(await assertion(client.id, rsa), { client_id: client.id });
    expect(withId.statusCode, withId.body).toBe(200);
  });

  it('refuses each broken assertion with 401 invalid_client and a reason, issues nothing, and audits the refusal', async () => {
    const client = await createKeyClient({ jwks: { keys: [rsa.jwk] } });
    const other = await createKeyClient({ jwks: { keys: [ec.jwk] } });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const cases: [string, () => Promise<string>, RegExp][] = [
      ['signed by a key the client did not register', () => assertion(client.id, stranger), /signature/],
      ['signed by another client’s registered key', () => assertion(client.id, ec), /signature/],
      ['addressed to another token endpoint', () => assertion(client.id, rsa, { claims: { aud: 'https://elsewhere.example/token' } }), /"aud"/],
      ['issued by someone else', () => assertion(client.id, rsa, { claims: { iss: other.id } }), /./],
      ['about someone else', () => assertion(client.id, rsa, { claims: { sub: other.id } }), /"sub"/],
      ['expired', () => assertion(client.id, rsa, { claims: { exp: now - 120 } }), /expired/],
      ['expiring more than five minutes from now', () => assertion(client.id, rsa, { claims: { exp: now + 900 } }), /5 minutes/],
      ['without an exp', () => assertion(client.id, rsa, { claims: { exp: undefined } }), /"exp"/],
      ['without a jti', () => assertion(client.id, rsa, { noJti: true }), /"jti"/],
      ['signed RS256, not RS384', async () => assertion(client.id, { ...(await keyPair('RS256', 'rsa-1')) }, { alg: 'RS256' }), /RS384 or ES384/],
      [
        'unsigned (alg none)',
        async () => `${b64({ alg: 'none' })}.${b64({ iss: client.id, sub: client.id, aud: tokenUrl, exp: now + 60, jti: 'x' })}.`,
        /RS384 or ES384/,
      ],
      ['not a JWT at all', async () => 'not-a-jwt', /./],
    ];
    for (const [what, make, reason] of cases) {
      const denied = await deniedTokens();
      const res = await byAssertion(await make(), { client_id: client.id });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(401);
      expect(res.json(), what).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
      expect(await deniedTokens(), what).toBe(denied + 1);
    }
    expect(await tokensOf(client.id)).toBe(0);
  });

  it('takes an assertion once: the same jti again is refused', async () => {
    const client = await createKeyClient({ jwks: { keys: [rsa.jwk] } });
    const signed = await assertion(client.id, rsa);
    expect((await byAssertion(signed)).statusCode).toBe(200);
    const again = await byAssertion(signed);
    expect(again.statusCode).toBe(401);
    expect(again.json().error_description).toMatch(/used already/);
    expect(await tokensOf(client.id)).toBe(1);
  });

  it('one way per request and per client: a secret and an assertion together, a wrong assertion type, or the other way of the client, are refused', async () => {
    const keyClient = await createKeyClient({ jwks: { keys: [rsa.jwk] } });
    const secretClient = (await admin.post('/api/admin/api-clients', { name: 'Portal', actingUserId: admin.user.id, scopes: ['system/*.read'] })).json();
    const both = await byAssertion(await assertion(keyClient.id, rsa), { client_secret: 'anything' });
    expect([both.statusCode, both.json().error]).toEqual([400, 'invalid_request']);
    const wrongType = await tokenRequest({ client_assertion_type: 'urn:example:saml', client_assertion: await assertion(keyClient.id, rsa) });
    expect([wrongType.statusCode, wrongType.json().error]).toEqual([400, 'invalid_request']);
    const secretToKeyClient = await tokenRequest({ client_id: keyClient.id, client_secret: 'x'.repeat(43) });
    expect([secretToKeyClient.statusCode, secretToKeyClient.json().error]).toEqual([401, 'invalid_client']);
    const assertionToSecretClient = await byAssertion(await assertion(secretClient.id, rsa));
    expect([assertionToSecretClient.statusCode, assertionToSecretClient.json().error]).toEqual([401, 'invalid_client']);
    // The secret client's own way still works.
    expect((await tokenRequest({ client_id: secretClient.id, client_secret: secretClient.clientSecret })).statusCode).toBe(200);
  });

  it('stops when revoked', async () => {
    const client = await createKeyClient({ jwks: { keys: [rsa.jwk] } });
    expect((await admin.post(`/api/admin/api-clients/${client.id}/revoke`, {})).statusCode).toBe(200);
    expect((await byAssertion(await assertion(client.id, rsa))).statusCode).toBe(401);
  });

  it('reads the keys a client publishes at its JWKS URL, and refuses when they cannot be read', async () => {
    const client = await createKeyClient({ jwksUrl: `${keyServerUrl}/jwks.json` });
    expect(client).toMatchObject({ jwksUrl: `${keyServerUrl}/jwks.json`, keyIds: [] });
    const res = await byAssertion(await assertion(client.id, ec));
    expect(res.statusCode, res.body).toBe(200);
    expect((await byAssertion(await assertion(client.id, rsa))).statusCode).toBe(401);

    const gone = await createKeyClient({ jwksUrl: `${keyServerUrl}/missing.json` });
    const refused = await byAssertion(await assertion(gone.id, ec));
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error_description).toMatch(/published keys could not be read/);
  });
});

describe('registering keys', () => {
  it('refuses what could never verify, or must never be sent, writing nothing', async () => {
    const { privateKey } = await generateKeyPair('RS384', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    // jose will not make a key under 2048 bits: Node's crypto does.
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const p256 = await generateKeyPair('ES256', { extractable: true });
    const before = (await t.db.select().from(apiClients)).length;
    const base = { name: 'Bad keys', actingUserId: admin.user.id, scopes: ['system/*.read'] };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a private key', { authMethod: 'private_key_jwt', jwks: { keys: [privateJwk] } }, /private key/],
      ['an RSA key under 2048 bits', { authMethod: 'private_key_jwt', jwks: { keys: [weak.publicKey.export({ format: 'jwk' })] } }, /2048/],
      ['an EC key on P-256', { authMethod: 'private_key_jwt', jwks: { keys: [await exportJWK(p256.publicKey)] } }, /ES384/],
      ['an encryption key', { authMethod: 'private_key_jwt', jwks: { keys: [{ ...rsa.jwk, use: 'enc' }] } }, /not a signing key/],
      ['no keys', { authMethod: 'private_key_jwt', jwks: { keys: [] } }, /at least one key/],
      ['keys and a URL', { authMethod: 'private_key_jwt', jwks: { keys: [rsa.jwk] }, jwksUrl: 'https://example.org/jwks' }, /one of the two/],
      ['neither keys nor a URL', { authMethod: 'private_key_jwt' }, /one of the two/],
      ['keys for a secret client', { jwks: { keys: [rsa.jwk] } }, /only for a client that signs/],
      ['a plain http URL', { authMethod: 'private_key_jwt', jwksUrl: 'http://keys.example.org/jwks' }, /https/],
    ];
    for (const [what, body, message] of cases) {
      const res = await admin.post('/api/admin/api-clients', { ...base, ...body });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json().errors), what).toMatch(message);
    }
    expect((await t.db.select().from(apiClients)).length).toBe(before);
  });
});

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
