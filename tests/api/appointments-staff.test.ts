import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZStaffMember } from '#domain/staff';
import { ZAdminUser } from '#domain/users';
import { createUser } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The pickers of the schedule form (nurses, scribes) and of the chat's team checklist, and the
// admin panel's first user list.
let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAs(t, 'admin');
  scheduler = await signInAs(t, 'scheduler');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/staff and GET /api/scheduler/staff', () => {
  it.each(['/api/staff', '/api/scheduler/staff'])('%s lists active staff by name, with no email', async (url) => {
    const active = await createUser(t.db, { role: 'nurse', lastName: 'Aaronson', firstName: 'Zoe' });
    const retired = await createUser(t.db, { role: 'nurse', isActive: false });
    for (const client of [admin, scheduler]) {
      const res = await client.get(url);
      expect(res.statusCode).toBe(200);
      const list = res.json() as unknown[];
      for (const item of list) expect(Object.keys(ZStaffMember.parse(item)).sort()).toEqual(['firstName', 'id', 'lastName', 'role']);
      const ids = (list as { id: string }[]).map((s) => s.id);
      expect(ids).toContain(active.id);
      expect(ids).not.toContain(retired.id);
      expect(res.body).not.toContain('@');
      const names = (list as { lastName: string | null }[]).map((s) => (s.lastName ?? '').toLowerCase());
      expect(names).toEqual([...names].sort());
    }
  });

  it('filters by role for the nurse and scribe pickers', async () => {
    const aScribe = await createUser(t.db, { role: 'scribe' });
    const res = await scheduler.get('/api/scheduler/staff?role=scribe');
    expect(res.json().every((s: { role: string }) => s.role === 'scribe')).toBe(true);
    expect(res.json().map((s: { id: string }) => s.id)).toContain(aScribe.id);
    expect((await scheduler.get('/api/scheduler/staff?role=janitor')).statusCode).toBe(400);
  });

  it('pages by cursor when asked for fewer', async () => {
    for (let i = 0; i < 3; i++) await createUser(t.db, { role: 'supplier' });
    const seen: string[] = [];
    let url = '/api/staff?role=supplier&limit=2';
    for (;;) {
      const res = await admin.get(url);
      seen.push(...res.json().map((s: { id: string }) => s.id));
      const next = res.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/staff?role=supplier&limit=2&cursor=${next}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);
  });

  it.each(['nurse', 'scribe', 'supplier'] as const)('refuses a %s with 403', async (role) => {
    const client = await signInAs(t, role);
    expect((await client.get('/api/staff')).statusCode).toBe(403);
    expect((await client.get('/api/scheduler/staff')).statusCode).toBe(403);
  });
});

describe('GET /api/admin/users', () => {
  it('lists every account, active or not, with email and status, for an admin only', async () => {
    const retired = await createUser(t.db, { role: 'scribe', isActive: false });
    const res = await admin.get('/api/admin/users?limit=1000');
    expect(res.statusCode).toBe(200);
    const users = res.json().map((u: unknown) => ZAdminUser.parse(u));
    expect(users.find((u: { id: string }) => u.id === retired.id)).toMatchObject({ email: retired.email, isActive: false, role: 'scribe' });
    expect(res.body).not.toContain('argon2');
    expect((await scheduler.get('/api/admin/users')).statusCode).toBe(403);
    expect((await anonymous(t).get('/api/admin/users')).statusCode).toBe(401);
  });
});
