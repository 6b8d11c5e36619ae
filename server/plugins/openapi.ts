import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderApiDocs } from '../http/api-docs-page.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';

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
      servers: [{ url: '/', description: 'This server' }],
      tags: Object.entries(AREAS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie POST /api/auth/login sets.' } },
      },
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

/** The API's areas: each operation is tagged with the first segment of its path. */
const AREAS: Record<string, string> = {
  auth: 'Signing in and out, sessions, password links, single sign-on',
  patients: 'Patient records',
  appointments: 'Appointments, the calendar and the visit workflow',
  notes: 'Clinical notes and their review workflow',
  labs: 'Lab orders, their results and review, critical alerts, and the test catalogue',
  chart: "The clinical chart: a patient's allergies, problems, medications and vital signs, and the formulary",
  prescriptions: 'Prescriptions: drafts, their checks, signing, printing, renewal and their end',
  supplies: 'The supply catalogue and its stock, supply orders and their pickup, reorder suggestions',
  chat: 'Team chat rooms about a patient',
  notifications: "The caller's notifications",
  objects: 'Uploaded files: links, bytes and downloads',
  uploads: 'Large uploads in parts',
  'patient-attachments': 'Confirming an upload as a note attachment',
  'chat-attachments': 'Confirming an upload as a chat attachment',
  dashboard: 'Figures for the dashboard',
  analytics: 'Charts for admins',
  reports: 'Reports: each as JSON, CSV and PDF',
  admin: 'Users, settings, API clients and the audit trail',
  oauth: 'Bearer tokens for the FHIR API at /fhir/R4 (OAuth 2.0 client credentials)',
  staff: 'Active staff, for assigning',
  clinic: "The clinic's name and time zone",
  health: 'Liveness and readiness',
  metrics: 'Prometheus metrics of the instance',
  openapi: 'This document',
  docs: 'The API reference as a page',
};

/**
 * Adds what the route table knows to each operation: its access rule, the session requirement
 * where one is needed, its area as a tag, a stable `operationId` (a generated client's method
 * name) and a summary, unless the route wrote its own.
 */
function withAccessRules(app: FastifyInstance, document: TOpenApiDocument): TOpenApiDocument {
  for (const route of app.apiRoutes) {
    const operation = document.paths?.[openApiPath(route.url)]?.[route.method.toLowerCase()];
    if (!operation) continue;
    operation['x-access'] = route.access;
    if (route.access !== 'public') operation.security = [{ session: [] }];
    operation.operationId ??= operationIdOf(route.method, route.url);
    operation.summary ??= summaryOf(route.method, route.url, operation.description);
    operation.tags ??= [areaOf(route.url)];
  }
  return document;
}

/** Paths whose first segment is not their area's name. */
const AREA_OF_SEGMENT: Record<string, string> = {
  login: 'auth',
  logout: 'auth',
  'openapi.json': 'openapi',
  scheduler: 'staff',
  'lab-orders': 'labs',
  'lab-inbox': 'labs',
  'lab-tests': 'labs',
  'supply-items': 'supplies',
  'supply-orders': 'supplies',
  'supply-suggestions': 'supplies',
};
const areaOf = (url: string) => {
  const segment = url.split('/')[2] ?? '';
  return AREA_OF_SEGMENT[segment] ?? segment;
};

const words = (url: string) =>
  url
    .replace(/^\/api\//, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? `by ${part.slice(1)}` : part))
    .join(' ')
    .split(/[\s._-]+/)
    .filter(Boolean);

/** `GET /api/patients/:id` is `getPatientsById`: unique, as a method and a path are. */
export function operationIdOf(method: string, url: string): string {
  const [first, ...rest] = [method.toLowerCase(), ...words(url)];
  return first + rest.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** The summary: the first sentence of the route's description, else its method and path in words. */
function summaryOf(method: string, url: string, description: unknown): string {
  const sentence = typeof description === 'string' ? /^[^.:;]+/.exec(description)?.[0]?.trim() : undefined;
  return sentence && sentence.length <= 100 ? sentence : `${method} ${words(url).join(' ')}`;
}

/** Fastify's `/api/patients/:id` is OpenAPI's `/api/patients/{id}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
