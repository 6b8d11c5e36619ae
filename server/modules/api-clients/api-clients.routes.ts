import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiClient, ZCreateApiClient, ZCreatedApiClient, ZOAuthErrorBody, ZTokenRequest, ZTokenResponse } from '#domain/api-clients';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf, visitorContextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { API_CLIENT_READS, createApiClient, issueToken, revokeApiClient } from './api-clients.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid API client id') });
const audit = { entityType: 'api_client' } as const;

/** `Basic base64(id:secret)`, OAuth's client_secret_basic. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const encoded = /^Basic ([A-Za-z0-9+/=]{1,400})$/.exec(header ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) } : null;
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
        description: 'Creates an API client reading as a staff account, within its scopes. The secret is in this answer only.',
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

  app.post(
    '/api/oauth/token',
    {
      config: { access: 'public' },
      schema: {
        description:
          'OAuth 2.0 client credentials for the FHIR API: grant_type=client_credentials, the client id and secret in the body or Basic auth, an optional narrower scope.',
        body: ZTokenRequest,
        response: { 200: ZTokenResponse, ...errorResponses, 400: ZOAuthErrorBody, 401: ZOAuthErrorBody },
      },
    },
    async (request) => {
      const basic = basicCredentials(request.headers.authorization);
      return issueToken(deps, visitorContextOf(request), {
        grantType: request.body.grant_type,
        clientId: basic?.id ?? request.body.client_id,
        clientSecret: basic?.secret ?? request.body.client_secret,
        scope: request.body.scope,
      });
    },
  );
};
