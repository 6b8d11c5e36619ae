import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { FAKE_TEXT_ASSETS, fakeWebDist } from '../helpers/web-dist.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { patientInput } from '../helpers/factories.ts';
import { signInAs } from '../helpers/sign-in.ts';

let t: TestApp;
const dist = await fakeWebDist();
beforeAll(async () => {
  t = await buildTestApp({ WEB_DIST: dist.dir });
});
afterAll(async () => {
  await t?.close();
  dist.remove();
});

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

  it('never serves the build manifest', async () => {
    expect((await anonymous(t).get('/.vite/manifest.json')).statusCode).toBe(404);
  });
});

describe('compressed delivery', () => {
  const decoders = { br: brotliDecompressSync, gzip: gunzipSync };

  it.each(Object.keys(FAKE_TEXT_ASSETS).filter((file) => file !== 'robots.txt'))(
    '/%s goes out as brotli or gzip, whichever the browser accepts, and as it is to one that accepts neither',
    async (file) => {
      const url = file === 'index.html' ? '/' : `/${file}`;
      for (const [accept, encoding] of [
        ['br, gzip', 'br'],
        ['gzip, deflate', 'gzip'],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], `${url} with ${accept}`).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(decoders[encoding](res.rawPayload).toString()).toBe(FAKE_TEXT_ASSETS[file]);
      }
      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(FAKE_TEXT_ASSETS[file]);
    },
  );

  it('compresses a JSON answer above 1 KB for a client that accepts it, and a small one not', async () => {
    const nurse = await signInAs(t, 'nurse');
    for (let i = 0; i < 10; i += 1) await nurse.post('/api/patients', patientInput());
    const cookie = `sid=${nurse.cookie}`;
    const list = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie, 'accept-encoding': 'br' } });
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(list.rawPayload).toString())).toHaveLength(10);
    const plain = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toHaveLength(10);
    const small = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie, 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().id).toBe(nurse.user.id);
  });
});

describe('robots.txt', () => {
  it('is served as text, not as the app', async () => {
    const res = await anonymous(t).get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('Disallow: /');
  });
});
