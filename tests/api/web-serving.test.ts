import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { fakeWebDist } from '../helpers/web-dist.ts';

let t: TestApp;
const dist = fakeWebDist();
beforeAll(async () => { t = await buildTestApp({ WEB_DIST: dist.dir }); });
afterAll(async () => { await t?.close(); dist.remove(); });

describe('serving the web app', () => {
  it('answers any client route with index.html, never cached', async () => {
    for (const url of ['/', '/patients', '/no/such/screen?x=1']) {
      const res = await anonymous(t).get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>app</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets for a year and other files with revalidation', async () => {
    const asset = await anonymous(t).get('/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await anonymous(t).get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset and an unknown API path with a JSON 404', async () => {
    const asset = await anonymous(t).get('/assets/missing.js');
    expect(asset.statusCode).toBe(404);
    expect(asset.json().code).toBe('route.notFound');
    const api = await anonymous(t).get('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Route GET /api/nothing-here not found', code: 'route.notFound' });
  });

  it('never serves files outside the build, and a malformed path is a 4xx, not a 500', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/%E0%A4%A']) {
      const res = await anonymous(t).get(url);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('"name": "clinic-ehr"');
    }
  });
});
