import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../server/modules/auth/login-throttle.ts';
import { createUser, TEST_PASSWORD, unique } from '../helpers/factories.ts';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Behind a proxy each test gets its own client address, so their counters stay apart.
let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ TRUST_PROXY: '1' }); });
afterAll(async () => { await t?.close(); });

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const login = (email: string, password: string, ip: string) =>
  anonymous(t).post('/api/auth/login', { email, password }, from(ip));

describe('sign-in throttling by address', () => {
  it('locks an address that fails with many different emails, and only that address', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      expect((await login(`${unique('guess')}@test.clinic`, 'wrong', ip)).statusCode).toBe(401);
    }
    const user = await createUser(t.db);
    const locked = await login(user.email, TEST_PASSWORD, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many failed sign-in attempts/);
    expect((await login(user.email, TEST_PASSWORD, '203.0.113.8')).statusCode).toBe(200);
  });

  it('counts failures within a window: old failures are forgotten', async () => {
    const user = await createUser(t.db);
    const ip = '203.0.113.20';
    for (let i = 0; i < THROTTLE.emailLimit - 1; i++) await login(user.email, 'wrong', ip);
    t.clock.advance(THROTTLE.windowMs + 1000);
    expect((await login(user.email, 'wrong', ip)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('a successful sign-in clears the email counter', async () => {
    const user = await createUser(t.db);
    const ip = '203.0.113.30';
    for (let i = 0; i < THROTTLE.emailLimit - 1; i++) await login(user.email, 'wrong', ip);
    expect((await login(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.emailLimit - 1; i++) {
      expect((await login(user.email, 'wrong', ip)).statusCode).toBe(401);
    }
  });
});
