import type { UserConfig } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.ts';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { fakeWebDist } from '../helpers/web-dist.ts';

// Issue 14, items 3 and 8: caching of /api answers, source maps, malformed URLs, the origin
// check, the CSP's connect-src and X-Frame-Options.

const PUBLIC_URL = 'https://ehr.example.org';
let attempt = 0;
/** A failed sign-in with a new email each time, so no throttling delay or limit is in play. */
const login = () => ({ email: `nobody-${++attempt}@example.org`, password: 'wrong-password' });

let t: TestApp;
/** NODE_ENV=production with a built web app and PUBLIC_URL set. */
let prod: TestApp;
const dist = await fakeWebDist();
beforeAll(async () => {
  t = await buildTestApp();
  prod = await buildTestApp({ NODE_ENV: 'production', WEB_DIST: dist.dir, PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
  await prod?.close();
  dist.remove();
});

describe('every /api answer is Cache-Control: no-store', () => {
  it('successes, sign-in and the redirects', async () => {
    const nurse = await signInAs(t, 'nurse');
    const answers = {
      'GET /api/patients': await nurse.get('/api/patients'),
      'GET /api/auth/user': await nurse.get('/api/auth/user'),
      'GET /api/health': await anonymous(t).get('/api/health'),
      'GET /api/openapi.json': await anonymous(t).get('/api/openapi.json'),
      'GET /api/login': await anonymous(t).get('/api/login'),
      'GET /api/logout': await nurse.get('/api/logout', { 'sec-fetch-site': 'same-origin' }),
    };
    expect(answers['GET /api/patients'].statusCode).toBe(200);
    expect(answers['GET /api/login'].statusCode).toBe(302);
    expect(answers['GET /api/logout'].statusCode).toBe(302);
    for (const [what, res] of Object.entries(answers)) expect(res.headers['cache-control'], what).toBe('no-store');

    const user = await signInAs(t, 'scheduler');
    const signIn = await anonymous(t).post('/api/auth/login', { email: user.user.email, password: 'not-it' });
    expect(signIn.statusCode).toBe(401);
    expect(signIn.headers['cache-control']).toBe('no-store');
  });

  it('refusals made before the route runs, validation errors and unknown paths', async () => {
    const supplier = await signInAs(t, 'supplier');
    const answers = {
      401: await anonymous(t).get('/api/auth/user'),
      403: await supplier.get('/api/patients'),
      404: await anonymous(t).get('/api/no-such-thing'),
      400: await anonymous(t).post('/api/auth/login', { email: 'not-an-email' }),
    };
    for (const [status, res] of Object.entries(answers)) {
      expect(res.statusCode, status).toBe(Number(status));
      expect(res.headers['cache-control'], status).toBe('no-store');
    }
    const crossSite = await anonymous(t).post('/api/auth/login', login(), { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.headers['cache-control']).toBe('no-store');
  });

  it('also when the web app is served, which keeps its own caching', async () => {
    const api = await anonymous(prod).get('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.headers['cache-control']).toBe('no-store');
    expect((await anonymous(prod).get('/patients')).headers['cache-control']).toBe('no-cache');
    expect((await anonymous(prod).get('/assets/app-1234.js')).headers['cache-control']).toContain('immutable');
  });
});

describe('source maps of the web app', () => {
  it('are not served in production', async () => {
    expect((await anonymous(prod).get('/assets/app-1234.js')).statusCode).toBe(200);
    for (const url of ['/assets/app-1234.js.map', '/assets/app-1234.js.map?x=1', '/assets/missing.js.map']) {
      const res = await anonymous(prod).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('sourcesContent');
    }
  });

  it('are built hidden: no bundle names its map', () => {
    expect((viteConfig as UserConfig).build?.sourcemap).toBe('hidden');
  });
});

describe('a malformed URL', () => {
  it('gets the one error body with the security headers, never echoing the URL', async () => {
    for (const url of ['/x%', '/api/x%', '/api/patients/%zz-probe']) {
      for (const app of [t, prod]) {
        const res = await anonymous(app).get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ message: 'Bad request', code: 'request.invalid' });
        expect(res.body, url).not.toContain('%');
        expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
    }
  });
});

describe('the origin check on state-changing requests', () => {
  const host = 'localhost:5000';
  const refused = { message: 'Cross-site request refused', code: 'request.crossSite' };

  it('refuses a foreign Referer when there is no Origin', async () => {
    for (const referer of ['https://evil.example/page', 'http://localhost:5001/', 'https://localhost:5000/login', 'not a url']) {
      const res = await anonymous(t).post('/api/auth/login', login(), { host, referer });
      expect(res.statusCode, referer).toBe(403);
      expect(res.json(), referer).toEqual(refused);
    }
  });

  it('compares scheme, host and port of the Origin', async () => {
    for (const origin of ['https://localhost:5000', 'http://localhost:5001', 'http://localhost', 'null']) {
      const res = await anonymous(t).post('/api/auth/login', login(), { host, origin });
      expect(res.statusCode, origin).toBe(403);
    }
  });

  it('accepts its own origin, a same-origin Referer, and a client that sends neither', async () => {
    const cases: Record<string, string>[] = [
      { host, origin: 'http://localhost:5000' },
      { host, referer: 'http://localhost:5000/login?next=%2F' },
      { host: 'localhost:80', origin: 'http://localhost' },
      { host },
      { host, 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of cases) {
      const res = await anonymous(t).post('/api/auth/login', login(), headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
    }
  });

  it('with PUBLIC_URL set, accepts that origin only', async () => {
    for (const headers of [{ origin: PUBLIC_URL }, { referer: `${PUBLIC_URL}/login` }] as Record<string, string>[]) {
      const res = await anonymous(prod).post('/api/auth/login', login(), { host: 'ehr.example.org', ...headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
    }
    const own: Record<string, string>[] = [
      { host: 'internal:5000', origin: 'http://internal:5000' },
      { host: 'ehr.example.org', origin: 'http://ehr.example.org' },
      { host: 'ehr.example.org', referer: 'http://ehr.example.org/login' },
    ];
    for (const headers of own) {
      const res = await anonymous(prod).post('/api/auth/login', login(), headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
  });
});

describe('framing and connections', () => {
  const directive = (csp: string | undefined, name: string) =>
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  it('connect-src allows only the app itself (its /ws included), not sockets to any host', async () => {
    for (const app of [t, prod]) {
      const csp = (await anonymous(app).get('/api/health')).headers['content-security-policy'] as string;
      expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
    }
  });

  it('X-Frame-Options agrees with frame-ancestors: no framing at all', async () => {
    const res = await anonymous(t).get('/api/health');
    expect(directive(res.headers['content-security-policy'] as string, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('no part of a URL leaves for another site, while same-origin form posts keep their Origin', async () => {
    // With 'no-referrer' a browser sends `Origin: null` on the sign-out form's POST, which the
    // origin check must refuse (the browser test of signing out caught it).
    expect((await anonymous(t).get('/api/health')).headers['referrer-policy']).toBe('same-origin');
  });
});
