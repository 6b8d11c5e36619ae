import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, type TCapability } from '#domain/permissions';
import { ROLES } from '#domain/roles';
import { loadConfig } from '../../server/config.ts';
import { createSessionCache } from '../../server/sessions/session-cache.ts';
import { loadClinicSettings } from '../../server/clinic/clinic-settings.ts';
import { authPlugin } from '../../server/plugins/auth.ts';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const concrete = (url: string) => url.replace(/:[a-zA-Z]+/g, randomUUID());

describe('access rules', () => {
  // That every route has one needs no test of its own: the app would not start (this one).
  it('an /api route without one stops the app from starting', async () => {
    const app = Fastify();
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const settings = await loadClinicSettings(t.db, config);
    await app.register(authPlugin, { db: t.db, config, sessions: createSessionCache({ revalidateMs: 0, maxEntries: 1 }), settings });
    expect(() => app.get('/api/forgotten', async () => 'secret')).toThrow(/declares no access rule/);
    await app.close();
  });

  it('every signed-in route answers 401 Unauthorized without a session', async () => {
    const guarded = t.app.apiRoutes.filter((r) => r.access !== 'public');
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const res = await anonymous(t).request(route.method as 'GET', concrete(route.url), route.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized', code: 'auth.unauthenticated' });
    }
  });

  it('every capability route answers 403 to each role that lacks the capability', async () => {
    const clients = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await signInAs(t, r)] as const)));
    const guarded = t.app.apiRoutes.filter((r) => r.access in CAPABILITIES);
    for (const route of guarded) {
      const allowed = CAPABILITIES[route.access as TCapability] as readonly string[];
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        const res = await clients[role]!.request(route.method as 'GET', concrete(route.url), route.method === 'GET' ? undefined : {});
        expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
      }
    }
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from a foreign Origin before doing anything', async () => {
    const res = await anonymous(t).post('/api/auth/login', { email: 'a@b.c', password: 'x' }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Cross-site request refused', code: 'request.crossSite' });
  });

  it('accepts the same origin', async () => {
    const res = await anonymous(t).post('/api/auth/login', { email: 'a@b.c', password: 'x' }, { origin: 'http://localhost:5000', host: 'localhost:5000' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a cross-site request that carries no Origin', async () => {
    const res = await anonymous(t).post('/api/auth/login', { email: 'a@b.c', password: 'x' }, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
  });
});

describe('responses', () => {
  it('carry a content security policy and the usual hardening headers', async () => {
    const res = await anonymous(t).get('/api/health');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('an unknown /api path is a JSON 404', async () => {
    const res = await anonymous(t).get('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.any(String), code: 'route.notFound' });
  });
});
