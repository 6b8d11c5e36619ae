import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../server/plugins/openapi.ts';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { fakeWebDist } from '../helpers/web-dist.ts';

let t: TestApp;
// With a built web app, so its routes are registered too.
const dist = await fakeWebDist();
beforeAll(async () => {
  t = await buildTestApp({ WEB_DIST: dist.dir });
});
afterAll(async () => {
  await t?.close();
  dist.remove();
});

type TOperation = { 'x-access'?: string; requestBody?: unknown; responses?: Record<string, unknown>; security?: unknown[] };

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document listing every registered /api route with its access rule', async () => {
    const res = await anonymous(t).get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, TOperation>> };
    expect(doc.openapi).toBe('3.1.0');
    const missing = t.app.apiRoutes.filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]);
    expect(missing).toEqual([]);
    // And nothing else: the web app's own routes are not part of the API.
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
    for (const route of t.app.apiRoutes) {
      const operation = doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      expect(operation['x-access'], `${route.method} ${route.url}`).toBe(route.access);
      expect(operation.security !== undefined, `${route.method} ${route.url}`).toBe(route.access !== 'public');
    }
  });

  it('is valid by an OpenAPI validator, and names, summarises and tags every operation (issue 29)', async () => {
    const doc = (await anonymous(t).get('/api/openapi.json')).json();
    // The validator dereferences in place: hand it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>).flatMap((path) =>
      Object.values(path),
    );
    expect(operations.length).toBe(t.app.apiRoutes.length);
    expect(operations.filter((o) => !o.operationId || !o.summary || !o.tags?.length)).toEqual([]);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    const tags = new Set((doc.tags as { name: string }[]).map((tag) => tag.name));
    expect(operations.flatMap((o) => o.tags!).filter((tag) => !tags.has(tag))).toEqual([]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
    expect(doc.paths['/api/patients/{id}'].get).toMatchObject({ operationId: 'getPatientsById', tags: ['patients'] });
  });

  it('describes request bodies and the error body with its code', async () => {
    const doc = (await anonymous(t).get('/api/openapi.json')).json();
    const create = doc.paths['/api/patients'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.properties.firstName).toBeDefined();
    expect(body.required).toContain('firstName');
    const refused = create.responses['400'].content['application/json'].schema;
    expect(refused.properties.code.enum).toContain('request.validation');
    expect(create.responses['409']).toBeDefined();
  });
});

describe('GET /api/docs', () => {
  it('shows the reference as a page, under the content security policy', async () => {
    const res = await anonymous(t).get('/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('GET /api/patients/{id}');
    expect(res.body).toContain('patients.read');
    expect(res.body).not.toContain('<script');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
