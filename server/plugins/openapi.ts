import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderApiDocs } from '../http/api-docs-page.ts';

type TOpenApiDocument = { paths?: Record<string, Record<string, Record<string, unknown>>> } & Record<string, unknown>;

/**
 * The API documents itself: every /api route's schemas become an OpenAPI 3.1 document at
 * /api/openapi.json, each operation marked with its access rule (`x-access`), and /api/docs
 * shows it as a plain page (no scripts, so it runs under the app's content security policy).
 * Registered before the modules, so it sees every route they add.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Clinic EHR API',
        version: '1',
        description:
          'Every error is JSON {message, code} (codes: domain/errors.ts); a 400 adds errors[{path, message}]. ' +
          'Signed-in routes authenticate with the httpOnly session cookie from POST /api/auth/login. ' +
          'x-access names who may call an operation: public, signedIn, or a capability of domain/permissions.ts.',
      },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    },
    // Only the API: the web app's own routes (index.html, assets) are not part of it.
    transform: (route) => (route.url.startsWith('/api') ? jsonSchemaTransform(route) : { schema: { hide: true }, url: route.url }),
    transformObject: (documentObject) => withAccessRules(app, jsonSchemaTransformObject(documentObject) as TOpenApiDocument),
  });

  app.get(
    '/api/openapi.json',
    { config: { access: 'public' }, schema: { description: 'This document.', response: { 200: z.object({ openapi: z.string() }).passthrough() } } },
    async () => app.swagger(),
  );

  app.get(
    '/api/docs',
    { config: { access: 'public' }, schema: { description: 'The API reference as a page.', response: { 200: z.string() } } },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderApiDocs(app.swagger() as TOpenApiDocument)),
  );
});

/** Adds each operation's access rule, and the session requirement where one is needed. */
function withAccessRules(app: FastifyInstance, document: TOpenApiDocument): TOpenApiDocument {
  for (const route of app.apiRoutes) {
    const operation = document.paths?.[openApiPath(route.url)]?.[route.method.toLowerCase()];
    if (!operation) continue;
    operation['x-access'] = route.access;
    if (route.access !== 'public') operation.security = [{ session: [] }];
  }
  return document;
}

/** Fastify's `/api/patients/:id` is OpenAPI's `/api/patients/{id}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
