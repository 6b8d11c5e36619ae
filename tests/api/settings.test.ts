import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROLES } from '#domain/roles';
import { DEFAULT_OPENING_HOURS } from '#domain/settings';
import { auditEvents, clinicSettings } from '../../server/db/schema/auth.ts';
import { hashToken, sessionIsLive } from '../../server/sessions/session-store.ts';
import { SETTINGS_REVALIDATE_MS } from '../../server/clinic/clinic-settings.ts';
import { insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Two instances on one database, events travelling between them through it as between real
// servers. B's clock is put an hour back, so B never finds its copy of the settings due for a
// re-read during this file: whatever B learns of a change, it learns from the event.
let a: TestApp;
let b: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  a = await buildTestApp({}, { bus: 'database' });
  b = await buildTestApp({}, { bus: 'database', sharing: a });
  b.clock.advance(-60 * 60_000);
  admin = await signInAs(a, 'admin');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const MINUTE = 60_000;
const unique = (name: string) => `${name} ${randomBytes(3).toString('hex')}`;
const storedRow = async () => (await a.db.select().from(clinicSettings))[0];
const settingsAudit = () =>
  a.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'settings.update'), eq(auditEvents.outcome, 'allowed')));
const save = (body: object, by: SignedIn = admin) => by.put('/api/admin/settings', body);

describe('GET /api/admin/settings', () => {
  it('gives the environment defaults until an admin saves', async () => {
    const res = await admin.get('/api/admin/settings');
    expect(res.statusCode).toBe(200);
    const defaults = {
      clinicName: 'MediCare EHR',
      timeZone: 'America/New_York',
      sessionIdleMinutes: 30,
      nonClinicalInPatientRooms: false,
      criticalEscalationMinutes: 30,
      openingHours: DEFAULT_OPENING_HOURS,
      rooms: [],
      lateCancelHours: 24,
      unitSystem: 'metric',
    };
    expect(res.json()).toEqual({ ...defaults, defaults, updatedAt: null });
    expect((await admin.get('/api/clinic')).json()).toEqual({ name: 'MediCare EHR', timeZone: 'America/New_York', nonClinicalInPatientRooms: false });
  });
});

describe('who may read and change the settings', () => {
  it('only an admin; 401 without a session, 403 for every other role', async () => {
    const valid = { clinicName: 'Nobody', timeZone: 'UTC', sessionIdleMinutes: 30 };
    expect((await anonymous(a).get('/api/admin/settings')).statusCode).toBe(401);
    expect((await anonymous(a).put('/api/admin/settings', valid)).statusCode).toBe(401);
    expect((await anonymous(a).get('/api/clinic')).statusCode).toBe(401);
    const before = await storedRow();
    for (const role of ROLES) {
      const client = await signInAs(a, role);
      const allowed = role === 'admin';
      expect((await client.get('/api/admin/settings')).statusCode, role).toBe(allowed ? 200 : 403);
      if (!allowed) expect((await save(valid, client)).statusCode, role).toBe(403);
      // The name and zone are every signed-in user's.
      expect((await client.get('/api/clinic')).statusCode, role).toBe(200);
    }
    expect(await storedRow()).toEqual(before);
    const refused = await a.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'settings.update'), eq(auditEvents.outcome, 'forbidden')));
    expect(refused.length).toBe(ROLES.length - 1);
  });
});

describe('PUT /api/admin/settings', () => {
  it('saves all three, re-read from the database, with an audit row and settings.changed', async () => {
    const name = unique('Riverside Clinic');
    const res = await save({ clinicName: `  ${name}  `, timeZone: 'Europe/Berlin', sessionIdleMinutes: 45 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ clinicName: name, timeZone: 'Europe/Berlin', sessionIdleMinutes: 45, defaults: { clinicName: 'MediCare EHR' } });
    const row = await storedRow();
    expect(row).toMatchObject({ clinicName: name, timeZone: 'Europe/Berlin', sessionIdleMinutes: 45, updatedBy: admin.user.id });
    expect(res.json().updatedAt).toBe(row!.updatedAt.toISOString());
    expect((await admin.get('/api/admin/settings')).json()).toEqual(res.json());
    // This instance answers with them at once.
    expect((await admin.get('/api/clinic')).json()).toEqual({ name, timeZone: 'Europe/Berlin', nonClinicalInPatientRooms: false });
    expect((await admin.get('/api/appointments/clinic-time')).json()).toEqual({ timeZone: 'Europe/Berlin' });

    const audit = await settingsAudit();
    expect(audit.at(-1)).toMatchObject({ actorId: admin.user.id, entityType: 'clinic_settings' });
    await vi.waitFor(() => expect(a.events).toContainEqual({ type: 'settings.changed', actorId: admin.user.id }));
  });

  it('accepts IANA names the engine knows under another name (links), and UTC', async () => {
    for (const timeZone of ['UTC', 'Asia/Kolkata', 'US/Eastern', 'Etc/GMT+5']) {
      const res = await save({ clinicName: 'Zones', timeZone, sessionIdleMinutes: 30 });
      expect(res.statusCode, timeZone).toBe(200);
      expect(res.json().timeZone).toBe(timeZone);
    }
  });

  it.each([
    ['a zone that does not exist', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
    ['a zone in the wrong letter case', { timeZone: 'america/new_york' }, 'timeZone'],
    ['an offset rather than a zone', { timeZone: '+05:00' }, 'timeZone'],
    ['4 minutes', { sessionIdleMinutes: 4 }, 'sessionIdleMinutes'],
    ['481 minutes', { sessionIdleMinutes: 481 }, 'sessionIdleMinutes'],
    ['a fraction of a minute', { sessionIdleMinutes: 30.5 }, 'sessionIdleMinutes'],
    ['minutes as text', { sessionIdleMinutes: '30' }, 'sessionIdleMinutes'],
    ['a blank name', { clinicName: '   ' }, 'clinicName'],
    ['a name of 101 characters', { clinicName: 'x'.repeat(101) }, 'clinicName'],
    ['a field it does not know', { colour: 'blue' }, 'colour'],
    ['a critical escalation of 4 minutes', { criticalEscalationMinutes: 4 }, 'criticalEscalationMinutes'],
    ['a critical escalation of more than a day', { criticalEscalationMinutes: 1441 }, 'criticalEscalationMinutes'],
    [
      'a day closing before it opens',
      { openingHours: { ...DEFAULT_OPENING_HOURS, monday: { opens: '17:00', closes: '09:00' } } },
      'openingHours.monday.closes',
    ],
    ['an hour that is not a time', { openingHours: { ...DEFAULT_OPENING_HOURS, friday: { opens: '9am', closes: '17:00' } } }, 'openingHours.friday.opens'],
    ['a week missing a day', { openingHours: { monday: null } }, 'openingHours.tuesday'],
    ['a room twice', { rooms: ['1', '1'] }, 'rooms'],
    ['a room with no name', { rooms: ['  '] }, 'rooms.0'],
    ['a late cancellation of no hours', { lateCancelHours: 0 }, 'lateCancelHours'],
    ['units that are neither metric nor US', { unitSystem: 'imperial' }, 'unitSystem'],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_story, change, field) => {
    const before = await storedRow();
    const audited = (await settingsAudit()).length;
    const res = await save({ clinicName: 'Refused', timeZone: 'Europe/Paris', sessionIdleMinutes: 20, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('request.validation');
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
    expect(await storedRow()).toEqual(before);
    expect((await settingsAudit()).length).toBe(audited);
  });

  it('keeps the critical escalation time when a client does not send it, and saves it when sent (issue 30)', async () => {
    const set = await save({ clinicName: 'Escalation', timeZone: 'UTC', sessionIdleMinutes: 30, criticalEscalationMinutes: 15 });
    expect(set.json().criticalEscalationMinutes).toBe(15);
    const without = await save({ clinicName: 'Escalation', timeZone: 'UTC', sessionIdleMinutes: 30 });
    expect(without.json()).toMatchObject({ criticalEscalationMinutes: 15, defaults: { criticalEscalationMinutes: 30 } });
  });

  it('keeps the schedule (hours, rooms, late cancellation) when a client does not send it, and saves it when sent (issue 34)', async () => {
    const openingHours = { ...DEFAULT_OPENING_HOURS, saturday: { opens: '09:00', closes: '12:30' } };
    const set = await save({ clinicName: 'Schedule', timeZone: 'UTC', sessionIdleMinutes: 30, openingHours, rooms: ['101', 'Lab'], lateCancelHours: 48 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ openingHours, rooms: ['101', 'Lab'], lateCancelHours: 48 });
    const without = await save({ clinicName: 'Schedule', timeZone: 'UTC', sessionIdleMinutes: 30 });
    expect(without.json()).toMatchObject({ openingHours, rooms: ['101', 'Lab'], lateCancelHours: 48, defaults: { rooms: [], lateCancelHours: 24 } });
  });

  it('keeps the units of vital signs when a client does not send them, and the chart reads in the ones saved (issue 51)', async () => {
    const set = await save({ clinicName: 'Units', timeZone: 'UTC', sessionIdleMinutes: 30, unitSystem: 'us' });
    expect(set.json()).toMatchObject({ unitSystem: 'us', defaults: { unitSystem: 'metric' } });
    const without = await save({ clinicName: 'Units', timeZone: 'UTC', sessionIdleMinutes: 30 });
    expect(without.json().unitSystem).toBe('us');
    const patient = await insertPatient(a.db);
    expect((await admin.get(`/api/patients/${patient.id}/chart`)).json().unitSystem).toBe('us');
    expect((await save({ clinicName: 'Units', timeZone: 'UTC', sessionIdleMinutes: 30, unitSystem: 'metric' })).json().unitSystem).toBe('metric');
  });

  it('refuses a body missing a field', async () => {
    const res = await save({ clinicName: 'Half' });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['sessionIdleMinutes', 'timeZone']);
  });
});

describe('a second app instance', () => {
  it('sees a change made on the first, without a restart: name, time zone and idle timeout', async () => {
    const nurseOnB = await signInAs(b, 'nurse');
    const name = unique('Lakeside Clinic');
    expect((await save({ clinicName: name, timeZone: 'Australia/Sydney', sessionIdleMinutes: 10 })).statusCode).toBe(200);

    await vi.waitFor(async () => {
      expect((await nurseOnB.get('/api/clinic')).json()).toEqual({ name, timeZone: 'Australia/Sydney', nonClinicalInPatientRooms: false });
    });
    expect((await nurseOnB.get('/api/appointments/clinic-time')).json()).toEqual({ timeZone: 'Australia/Sydney' });

    // A session begun on B now lasts 10 idle minutes, not the default 30.
    const schedulerOnB = await signInAs(b, 'scheduler');
    b.clock.advance(9 * MINUTE);
    expect((await schedulerOnB.get('/api/auth/user')).statusCode).toBe(200);
    b.clock.advance(10 * MINUTE + 1000);
    expect((await schedulerOnB.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('sees a change made in SQL by hand once its copy is due for a re-read', async () => {
    const name = unique('Hand-edited Clinic');
    await a.db.update(clinicSettings).set({ clinicName: name, timeZone: 'Asia/Tokyo' });
    a.clock.advance(SETTINGS_REVALIDATE_MS);
    expect((await admin.get('/api/clinic')).json()).toEqual({ name, timeZone: 'Asia/Tokyo', nonClinicalInPatientRooms: false });
  });
});

describe('a shorter idle timeout', () => {
  it('ends existing sessions already idle that long at their next request, and no others', async () => {
    expect((await save({ clinicName: 'Idle', timeZone: 'UTC', sessionIdleMinutes: 30 })).statusCode).toBe(200);
    const idle = await signInAs(a, 'nurse');
    const busy = await signInAs(a, 'scribe');
    a.clock.advance(8 * MINUTE);
    expect((await busy.get('/api/auth/user')).statusCode).toBe(200);
    a.clock.advance(2 * MINUTE);
    const shortened = await signInAs(a, 'admin');
    expect((await save({ clinicName: 'Idle', timeZone: 'UTC', sessionIdleMinutes: 5 }, shortened)).statusCode).toBe(200);
    // Idle 10 minutes: over the new 5. Idle 2 minutes: still in.
    expect((await idle.get('/api/auth/user')).statusCode).toBe(401);
    expect((await busy.get('/api/auth/user')).statusCode).toBe(200);
    // Lengthening it again does not bring the ended session back.
    expect((await save({ clinicName: 'Idle', timeZone: 'UTC', sessionIdleMinutes: 60 }, shortened)).statusCode).toBe(200);
    expect((await idle.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('set in SQL by hand, ends a session idle that long once the settings are read again', async () => {
    await a.db.update(clinicSettings).set({ sessionIdleMinutes: 30 });
    a.clock.advance(SETTINGS_REVALIDATE_MS);
    const nurse = await signInAs(a, 'nurse');
    a.clock.advance(3 * MINUTE);
    expect((await nurse.get('/api/auth/user')).statusCode).toBe(200);
    a.clock.advance(6 * MINUTE);
    await a.db.update(clinicSettings).set({ sessionIdleMinutes: 5 });
    a.clock.advance(SETTINGS_REVALIDATE_MS);
    expect((await nurse.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('counts for the live sweep too: a session idle longer is no longer live', async () => {
    await a.db.update(clinicSettings).set({ sessionIdleMinutes: 30 });
    a.clock.advance(SETTINGS_REVALIDATE_MS);
    const nurse = await signInAs(a, 'nurse');
    a.clock.advance(7 * MINUTE);
    expect(await sessionIsLive(a.db, hashToken(nurse.cookie!), a.clock.now(), 30 * MINUTE)).toBe(true);
    expect(await sessionIsLive(a.db, hashToken(nurse.cookie!), a.clock.now(), 5 * MINUTE)).toBe(false);
  });
});
