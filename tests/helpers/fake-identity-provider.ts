import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';

/**
 * A minimal OpenID Connect provider on this machine, enough for the authorization code flow
 * with PKCE: discovery, an authorize endpoint that signs in whoever `nextEmail` names, a token
 * endpoint issuing an RS256 ID token, and its key set.
 */
export async function startFakeIdentityProvider(clientId: string) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(4).toString('hex');
  const codes = new Map<string, { email: string; challenge: string; nonce?: string }>();
  // `amr`: how the provider says the user signed in (RFC 8176); absent by default, as many providers leave it.
  const state: { nextEmail: string; emailVerified: boolean; amr?: string[] } = { nextEmail: '', emailVerified: true };
  const app = Fastify();
  await app.register(formbody);
  // Known once listening; the routes read it per request.
  let issuer = '';

  const b64 = (v: object | Buffer) => Buffer.from(v instanceof Buffer ? v : JSON.stringify(v)).toString('base64url');
  const sign = (claims: object) => {
    const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`;
  };

  app.get('/.well-known/openid-configuration', async () => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  }));
  app.get('/jwks', async () => ({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] }));
  app.get<{ Querystring: Record<string, string> }>('/authorize', async (request, reply) => {
    const q = request.query;
    const code = randomBytes(16).toString('hex');
    codes.set(code, { email: state.nextEmail, challenge: q.code_challenge ?? '', ...(q.nonce ? { nonce: q.nonce } : {}) });
    return reply.redirect(`${q.redirect_uri}?code=${code}&state=${encodeURIComponent(q.state ?? '')}&iss=${encodeURIComponent(issuer)}`);
  });
  app.post<{ Body: Record<string, string> }>('/token', async (request, reply) => {
    const grant = codes.get(request.body.code ?? '');
    codes.delete(request.body.code ?? '');
    const verifier = request.body.code_verifier ?? '';
    if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
      return reply.code(400).send({ error: 'invalid_grant' });
    }
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: randomBytes(16).toString('hex'),
      token_type: 'Bearer',
      expires_in: 300,
      id_token: sign({
        iss: issuer,
        aud: clientId,
        sub: createHash('sha256').update(grant.email).digest('hex'),
        iat: now,
        exp: now + 300,
        email: grant.email,
        email_verified: state.emailVerified,
        ...(state.amr ? { amr: state.amr } : {}),
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
      }),
    };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  issuer = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { issuer, state, close: () => app.close() };
}
