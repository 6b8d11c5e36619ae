import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OAUTH_TOKEN_PATH,
  ZAcceptApiClient,
  ZApiClient,
  ZCreateApiClient,
  ZCreatedApiClient,
  ZOAuthErrorBody,
  ZTokenRequest,
  ZTokenResponse,
} from '#domain/api-clients';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf, visitorContextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { ZErrorBody } from '#domain/errors';
import { acceptApiClient, API_CLIENT_READS, apiClientsFor, createApiClient, declineApiClient, issueToken, revokeApiClient } from './api-clients.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid API client id') });
const audit = { entityType: 'api_client' } as const;

/** `Basic base64(id:secret)`, OAuth's client_secret_basic. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const encoded = /^Basic ([A-Za-z0-9+/=]{1,400})$/.exec(header ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const [id, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  // RFC 6749 2.3.1: both halves are form-encoded. Halves that do not decode (`%ZZ`) are kept as
  // sent: they match no client, so the answer is invalid_client, never a server error.
  try {
    return { id: decodeURIComponent(id), secret: decodeURIComponent(secret) };
  } catch {
    return { id, secret };
  }
}

/**
 * API clients of the FHIR API (issue 35; docs/decisions/fhir.md): an admin creates and revokes
 * them; a client trades its id and secret for an hour's bearer token at the token endpoint.
 */
export const apiClientRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // OAuth's token requests are forms; this plugin's routes read them as objects.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    '/api/admin/api-clients',
    {
      config: { access: 'apiClients.manage', audit: { action: 'fhir.client_list', ...audit } },
      schema: { description: 'API clients of the FHIR API, newest first.', response: { 200: z.array(ZApiClient), ...errorResponses } },
    },
    async (request) => reader(deps, contextOf(request))(API_CLIENT_READS.list, undefined),
  );

  app.post(
    '/api/admin/api-clients',
    {
      config: { access: 'apiClients.manage', audit: { action: 'fhir.client_create', ...audit } },
      schema: {
        description:
          'Creates an API client reading as a staff account, within its scopes. With a secret (the default), the secret is in this answer only; with authMethod private_key_jwt, its public keys (jwks) or their URL (jwksUrl).',
        body: ZCreateApiClient,
        response: { 201: ZCreatedApiClient, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createApiClient(deps, contextOf(request), request.body)),
  );

  app.post(
    '/api/admin/api-clients/:id/revoke',
    {
      config: { access: 'apiClients.manage', audit: { action: 'fhir.client_revoke', ...audit } },
      schema: { description: 'Revokes an API client: its tokens stop working at once.', params: ZParams, response: { 200: ZApiClient, ...errorResponses } },
    },
    async (request) => revokeApiClient(deps, contextOf(request), request.params.id),
  );

  app.get(
    '/api/auth/api-clients',
    {
      config: { access: 'signedIn' },
      schema: {
        description: 'The API clients reading as the signed-in user: waiting for her to accept, in use, or revoked.',
        response: { 200: z.array(ZApiClient), ...errorResponses },
      },
    },
    async (request) => apiClientsFor(deps, contextOf(request)),
  );

  app.post(
    '/api/auth/api-clients/:id/accept',
    {
      config: { access: 'signedIn', audit: { action: 'fhir.client_accept', ...audit } },
      schema: {
        description: 'The signed-in user accepts a client reading as her (with a fresh second factor when she has one): it may take tokens from then on.',
        params: ZParams,
        body: ZAcceptApiClient,
        response: { 200: ZApiClient, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => acceptApiClient(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/auth/api-clients/:id/revoke',
    {
      config: { access: 'signedIn', audit: { action: 'fhir.client_revoke', ...audit } },
      schema: {
        description: 'The signed-in user declines a client waiting for her, or stops one she accepted: it is revoked and its tokens end.',
        params: ZParams,
        response: { 200: ZApiClient, ...errorResponses },
      },
    },
    async (request) => declineApiClient(deps, contextOf(request), request.params.id),
  );

  app.post(
    OAUTH_TOKEN_PATH,
    {
      config: { access: 'public' },
      schema: {
        description:
          'OAuth 2.0 client credentials for the FHIR API: grant_type=client_credentials, and the client id and secret in the body or Basic auth, or a signed assertion (client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer, client_assertion: a JWT signed RS384 or ES384); an optional narrower scope.',
        body: ZTokenRequest,
        response: { 200: ZTokenResponse, ...errorResponses, 400: ZOAuthErrorBody, 401: ZOAuthErrorBody },
      },
      // RFC 6749 5.1 and 5.2: no answer of the token endpoint, a token or a refusal, is kept by a cache.
      onSend: async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return payload;
      },
    },
    async (request) => {
      const basic = basicCredentials(request.headers.authorization);
      return issueToken(deps, visitorContextOf(request), {
        grantType: request.body.grant_type,
        clientId: basic?.id ?? request.body.client_id,
        clientSecret: basic?.secret ?? request.body.client_secret,
        clientAssertionType: request.body.client_assertion_type,
        clientAssertion: request.body.client_assertion,
        scope: request.body.scope,
        audience: `${originOf(deps, request)}${OAUTH_TOKEN_PATH}`,
      });
    },
  );
};
