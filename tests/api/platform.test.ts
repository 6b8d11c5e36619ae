import fs from 'node:fs';
import { Writable } from 'node:stream';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { queryRows } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/auth.ts';
import { DEMO_USERS } from '../../server/modules/auth/demo-accounts.ts';
import { seedDemoClinic } from '../../server/seed/demo-clinic.ts';
import { anonymous } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ DEMO: '1' });
});
afterAll(async () => {
  await t?.close();
});

describe('migrations', () => {
  it('create every table of the spec plus the audit trail, and record each migration once', async () => {
    const tables = await queryRows<{ table_name: string }>(
      t.db,
      sql`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'sessions',
        'users',
        'patients',
        'appointments',
        'patient_notes',
        'lab_orders',
        'supply_orders',
        'notifications',
        'patient_chat_rooms',
        'chat_room_members',
        'chat_messages',
        'chat_message_reactions',
        'audit_events',
        'login_throttle',
      ]),
    );
    const files = fs.readdirSync(path.resolve('server/db/migrations')).filter((f) => f.endsWith('.sql'));
    const applied = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0]!.n).toBe(files.length);
  });

  it('enforce the spec maxima and defaults in the database itself', async () => {
    const [user] = await t.db
      .insert(users)
      .values({ email: `defaults-${Date.now()}@test.clinic` })
      .returning();
    expect(user).toMatchObject({ role: 'nurse', isActive: true });
    await expect(t.db.insert(users).values({ email: 'x'.repeat(256) })).rejects.toThrow();
  });
});

describe('demo clinic seed', () => {
  it('run twice leaves one copy', async () => {
    await seedDemoClinic(t.db, t.config.clinicTimeZone);
    const before = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from patients`);
    expect(await seedDemoClinic(t.db, t.config.clinicTimeZone)).toBe(false);
    const demo = await t.db
      .select()
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_USERS.map((u) => u.email),
        ),
      );
    expect(demo).toHaveLength(6);
    const after = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from patients`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('gives every demo note a history that starts with its creation', async () => {
    await seedDemoClinic(t.db, t.config.clinicTimeZone);
    const bare = await queryRows(
      t.db,
      sql`select n.id from patient_notes n
      where not exists (select 1 from note_revisions r where r.note_id = n.id and r.action = 'created')`,
    );
    expect(bare).toEqual([]);
  });

  it('lets every demo user sign in with the demo password', async () => {
    await seedDemoClinic(t.db, t.config.clinicTimeZone);
    const offered = (await anonymous(t).get('/api/auth/demo-users')).json();
    expect(offered.users.map((u: { email: string }) => u.email)).toEqual(DEMO_USERS.map((u) => u.email));
    for (const u of DEMO_USERS) {
      const res = await anonymous(t).post('/api/auth/login', { email: u.email, password: 'demo-clinic-2026' });
      expect(res.statusCode, u.email).toBe(200);
      expect(res.json().role).toBe(u.role);
    }
  });
});

describe('GET /api/health', () => {
  it('is ok while the database answers, and 503 once it is gone', async () => {
    const other = await buildTestApp();
    expect((await anonymous(other).get('/api/health')).json()).toEqual({ status: 'ok' });
    await other.database.close();
    const res = await anonymous(other).get('/api/health');
    expect(res.statusCode).toBe(503);
    await other.app.close();
  });
});

describe('request logs', () => {
  it('never contain the query string, where patient search terms travel', async () => {
    let written = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        written += chunk.toString();
        done();
      },
    });
    const app = await buildApp({ ...t.config, logLevel: 'info' }, t.db, { logStream: stream });
    await app.inject({ method: 'GET', url: '/api/patients?search=Hartley' });
    // The line is written when the response has finished, which may be just after inject returns.
    await vi.waitFor(() => expect(written).toContain('/api/patients'));
    await app.close();
    expect(written).not.toContain('Hartley');
  });
});
