import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Issue 36: requests a minute per signed-in user and per address signed out, answered 429
// `rate.limited` with Retry-After past the limit, from the one error table.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_USER_PER_MINUTE: '8', RATE_LIMIT_PUBLIC_PER_MINUTE: '4' });
});
afterAll(() => t?.close());

describe('rate limits', () => {
  it('limit each user on her own, whatever her address, and leave other users alone', async () => {
    const nurse = await signInAs(t, 'nurse');
    const statuses: number[] = [];
    // From two addresses: the limit is hers, not each address's.
    for (let i = 0; i < 8; i += 1) {
      const remoteAddress = i % 2 === 0 ? '203.0.113.1' : '203.0.113.2';
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/api/patients?limit=1', remoteAddress, headers: { cookie: `sid=${nurse.cookie}` } })).statusCode,
      );
    }
    expect(statuses).toEqual(Array(8).fill(200));
    const refused = await nurse.get('/api/patients?limit=1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: 'Too many requests. Wait a moment and try again.', code: 'rate.limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    const scribe = await signInAs(t, 'scribe');
    expect((await scribe.get('/api/patients?limit=1')).statusCode).toBe(200);
    // Health and metrics answer monitors at any rate.
    for (let i = 0; i < 12; i += 1) expect((await anonymous(t).get('/api/health')).statusCode).toBe(200);
  });

  it('limit callers signed out by address, before the sign-in does any work', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: 'nobody@test.clinic', password: 'wrong password' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await from('198.51.100.7')).statusCode);
    // Sign-in's own throttle may speak first; past the limit it is always the rate limit.
    expect(statuses.slice(0, 4).every((s) => s === 401 || s === 429)).toBe(true);
    const limited = await from('198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate.limited');
    expect((await from('198.51.100.8')).json().code).not.toBe('rate.limited');
  });

  it('count probes for paths no route serves, like any request (issue 49)', async () => {
    const probe = (n: number) => t.app.inject({ method: 'GET', url: `/api/admin/${'x'.repeat(n)}`, remoteAddress: '198.51.100.9' });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i += 1) statuses.push((await probe(i)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404]);
    const limited = await probe(5);
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'rate.limited']);
    // Another address probes on.
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/elsewhere', remoteAddress: '198.51.100.10' })).statusCode).toBe(404);
  });
});
