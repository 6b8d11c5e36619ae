import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, type TCapability } from '#domain/permissions';
import type { TRole } from '#domain/roles';
import { queryRows } from '../../server/db/database.ts';
import { patientInput } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type Client, type TestApp } from '../helpers/test-app.ts';

// Security issue 39, finding 5: every read that returns patient data leaves an audit row naming
// the patient. Walked over the route table, so a GET route added later is held to it as well:
// a body that carries the patient's name or id is patient data, whatever the route is for.

let t: TestApp;
const callers = new Map<TRole, SignedIn>();
const ids: Record<string, string> = {};
let lastName: string;

beforeAll(async () => {
  t = await buildTestApp();
  const [admin, scheduler] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'scheduler')]);
  callers.set('admin', admin);
  callers.set('scheduler', scheduler);
  lastName = `Audited${randomBytes(4).toString('hex')}`;
  ids.patient = (await admin.post('/api/patients', patientInput({ lastName }))).json().id;
  const start = new Date(Date.now() + 86_400_000).toISOString();
  ids.appointment = (await scheduler.post('/api/appointments', { patientId: ids.patient, providerId: scheduler.user.id, appointmentDate: start })).json().id;
  ids.note = (await admin.post('/api/notes', { patientId: ids.patient, noteType: 'Progress Note', content: 'BP 120/80' })).json().id;
  // The scheduler's room, the admin added to it: her notification names the room, and the room its patient.
  ids.room = (await scheduler.post('/api/chat/rooms', { patientId: ids.patient, name: `${lastName} - Cardiology` })).json().id;
  expect((await scheduler.post(`/api/chat/rooms/${ids.room}/members`, { userId: admin.user.id })).statusCode).toBe(201);
  ids.message = (await admin.post(`/api/chat/rooms/${ids.room}/messages`, { content: 'hello', messageType: 'message' })).json().id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
});
afterAll(async () => {
  await t?.close();
});

async function callerFor(access: string): Promise<Client> {
  if (access === 'public') return anonymous(t);
  const role: TRole =
    access === 'signedIn'
      ? 'admin'
      : (CAPABILITIES[access as TCapability] as readonly TRole[]).includes('admin')
        ? 'admin'
        : (CAPABILITIES[access as TCapability] as readonly TRole[])[0]!;
  if (!callers.has(role)) callers.set(role, await signInAs(t, role));
  return callers.get(role)!;
}

function urlOf(route: string): string {
  const path = route.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (name === 'messageId') return ids.message!;
    if (name === 'id') {
      const area = route.split('/')[2];
      return { patients: ids.patient, appointments: ids.appointment, notes: ids.note, chat: ids.room }[area ?? ''] ?? randomUUID();
    }
    return randomUUID();
  });
  // Lists filtered to the patient where they take it, so the patient is on the first page.
  return route === '/api/appointments' || route === '/api/notes' ? `${path}?patientId=${ids.patient}` : path;
}

/** Audit rows naming the patient, as the patient's access log finds them. */
async function rowsNamingPatient(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from audit_events
    where patient_id = ${ids.patient}::uuid or ${ids.patient}::uuid = any(patient_ids)`,
  );
  return row!.n;
}

/** Routes whose answer names patients to someone already reading the audit trail itself: that read is recorded as such. */
const AUDIT_TRAIL_ROUTES = ['/api/admin/audit', '/api/admin/audit/export.csv'];

describe('every GET that returns patient data', () => {
  it('writes an audit row naming the patient', async () => {
    const routes = t.app.apiRoutes.filter((r) => r.method === 'GET');
    const unaudited: string[] = [];
    let carrying = 0;
    for (const route of routes) {
      const caller = await callerFor(route.access);
      const before = await rowsNamingPatient();
      const res = await caller.get(urlOf(route.url));
      if (res.statusCode !== 200 || !(res.body.includes(lastName) || res.body.includes(ids.patient!))) continue;
      carrying += 1;
      if (AUDIT_TRAIL_ROUTES.includes(route.url)) continue;
      if ((await rowsNamingPatient()) <= before) unaudited.push(route.url);
    }
    expect(unaudited).toEqual([]);
    // The sweep saw the patient's data where it should: the patient, appointment, note and chat reads, the notifications.
    expect(carrying).toBeGreaterThanOrEqual(10);
  });

  it('records the chat and notification reads by name, for the admin who made them', async () => {
    const admin = callers.get('admin')!;
    for (const url of ['/api/chat/rooms', `/api/chat/rooms/${ids.room}`, `/api/chat/rooms/${ids.room}/members`, '/api/notifications']) {
      expect((await admin.get(url)).statusCode, url).toBe(200);
    }
    const rows = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events
      where actor_id = ${admin.user.id}::uuid and (patient_id = ${ids.patient}::uuid or ${ids.patient}::uuid = any(patient_ids))`,
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['chat.rooms.read', 'chat.room.read', 'chat.members.read', 'notifications.read']));
  });
});
