import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { deleteExpiredThrottleRows, THROTTLE } from '../../server/modules/auth/login-throttle.ts';
import { createUser, TEST_PASSWORD, unique } from '../helpers/factories.ts';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Behind one trusted proxy (the injected requests come from 127.0.0.1), each test picks its own
// client addresses, so their counters stay apart.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, ip: string) => anonymous(t).post('/api/auth/login', { email, password }, { 'x-forwarded-for': ip });
let nextAddress = 1;
/** A fresh address in a documentation range for each call. */
const freshAddress = () => `198.51.100.${(nextAddress++ % 250) + 1}`;

describe('an attacker slows down themselves, not the real user', () => {
  it("five failures lock that account only from the attacker's address; its owner elsewhere signs in", async () => {
    const user = await createUser(t.db);
    const home = '203.0.113.10';
    expect((await login(user.email, TEST_PASSWORD, home)).statusCode).toBe(200);

    const attacker = '203.0.113.66';
    for (let i = 0; i < THROTTLE.pairLimit; i++) expect((await login(user.email, 'guess', attacker)).statusCode).toBe(401);
    const locked = await login(user.email, TEST_PASSWORD, attacker);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('signIn.throttled');

    // While the attacker keeps trying, the real user signs in from home and from a new place.
    for (let i = 0; i < 3; i++) expect((await login(user.email, 'guess', attacker)).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, home)).statusCode).toBe(200);
    expect((await login(user.email, TEST_PASSWORD, '203.0.113.11')).statusCode).toBe(200);
  });

  it('many addresses guessing one account make unknown sources wait longer and longer; a known source is never held up', async () => {
    const user = await createUser(t.db);
    const home = '203.0.113.20';
    expect((await login(user.email, TEST_PASSWORD, home)).statusCode).toBe(200);

    for (let i = 0; i < THROTTLE.accountFreeFailures; i++) {
      expect((await login(user.email, 'guess', freshAddress())).statusCode).toBe(401);
    }
    // The 11th failure makes the next unknown source wait 2 s, the 12th 4 s...
    expect((await login(user.email, 'guess', freshAddress())).statusCode).toBe(401);
    const waiting = await login(user.email, TEST_PASSWORD, freshAddress());
    expect(waiting.statusCode).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBe(2);
    t.clock.advance(2000);
    expect((await login(user.email, 'guess', freshAddress())).statusCode).toBe(401);
    expect(Number((await login(user.email, 'guess', freshAddress())).headers['retry-after'])).toBe(4);

    // The owner, from an address they signed in from before, is not slowed at all.
    expect((await login(user.email, TEST_PASSWORD, home)).statusCode).toBe(200);
  });

  it('failures with throwaway emails lock an address only at a high count, and never the staff known there', async () => {
    const clinic = '203.0.113.30';
    const colleague = await createUser(t.db);
    expect((await login(colleague.email, TEST_PASSWORD, clinic)).statusCode).toBe(200);
    // Thirty failures (the old limit) no longer lock anyone behind the address.
    for (let i = 0; i < 30; i++) expect((await login(`${unique('guess')}@test.clinic`, 'x', clinic)).statusCode).toBe(401);
    const newcomer = await createUser(t.db);
    expect((await login(newcomer.email, TEST_PASSWORD, clinic)).statusCode).toBe(200);

    for (let i = 30; i < THROTTLE.addressLimit; i++) await login(`${unique('guess')}@test.clinic`, 'x', clinic);
    const stranger = await createUser(t.db);
    expect((await login(stranger.email, TEST_PASSWORD, clinic)).statusCode).toBe(429);
    expect((await login(colleague.email, TEST_PASSWORD, clinic)).statusCode).toBe(200);
    expect((await login(stranger.email, TEST_PASSWORD, '203.0.113.31')).statusCode).toBe(200);
  });
});

describe('the counters', () => {
  it('count failures within a window: old failures are forgotten', async () => {
    const user = await createUser(t.db);
    const ip = '203.0.113.40';
    for (let i = 0; i < THROTTLE.pairLimit - 1; i++) await login(user.email, 'wrong', ip);
    t.clock.advance(THROTTLE.windowMs + 1000);
    expect((await login(user.email, 'wrong', ip)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it("a successful sign-in clears the pair's counter", async () => {
    const user = await createUser(t.db);
    const ip = '203.0.113.50';
    for (let i = 0; i < THROTTLE.pairLimit - 1; i++) await login(user.email, 'wrong', ip);
    expect((await login(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.pairLimit - 1; i++) expect((await login(user.email, 'wrong', ip)).statusCode).toBe(401);
  });

  it('expire: rows past their window and lock are deleted, live ones kept', async () => {
    const email = `${unique('expiry')}@test.clinic`;
    await login(email, 'wrong', '203.0.113.60');
    const count = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from login_throttle where key like ${`%${email}%`}`))[0]!.n;
    expect(await count()).toBe(2);
    await deleteExpiredThrottleRows(t.db, t.clock.now());
    expect(await count()).toBe(2);
    await deleteExpiredThrottleRows(t.db, new Date(t.clock.now().getTime() + THROTTLE.accountWindowMs + 1000));
    expect(await count()).toBe(0);
  });
});

describe('behind a proxy (TRUST_PROXY=1)', () => {
  it('the client is the address the proxy saw, not one the client wrote in front of it', async () => {
    const user = await createUser(t.db);
    // The attacker changes the first X-Forwarded-For value each time; the proxy appends the real one.
    for (let i = 0; i < THROTTLE.pairLimit; i++) {
      await anonymous(t).post('/api/auth/login', { email: user.email, password: 'guess' }, { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.70` });
    }
    const res = await anonymous(t).post('/api/auth/login', { email: user.email, password: TEST_PASSWORD }, { 'x-forwarded-for': '6.6.6.99, 203.0.113.70' });
    expect(res.statusCode).toBe(429);
  });

  it('a forwarded value that is not an IP address is never believed, stored or a 500', async () => {
    const user = await createUser(t.db);
    for (const header of ['<script>alert(1)</script>', 'x'.repeat(65), '1.2.3.4.5', '::ffff:not-an-ip']) {
      const res = await anonymous(t).post('/api/auth/login', { email: user.email, password: 'wrong' }, { 'x-forwarded-for': header });
      expect(res.statusCode, header).toBe(401);
    }
    const addresses = await queryRows<{ ip: string }>(t.db, sql`select distinct ip from audit_events where entity_id = ${user.id}`);
    expect(addresses).toEqual([{ ip: '127.0.0.1' }]);
  });
});
