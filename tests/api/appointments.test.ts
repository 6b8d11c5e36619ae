import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAppointment } from '#domain/appointments';
import { queryRows } from '../../server/db/database.ts';
import { appointments } from '../../server/db/schema/clinical.ts';
import { auditTrailOfPatient } from '../../server/modules/audit/audit.queries.ts';
import { appointmentInput, createUser, insertAppointment, insertPatient, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAs(t, 'admin');
  scheduler = await signInAs(t, 'scheduler');
  nurse = await signInAs(t, 'nurse');
  scribe = await signInAs(t, 'scribe');
  supplier = await signInAs(t, 'supplier');
});
afterAll(async () => {
  await t?.close();
});

const appointmentCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from appointments`))[0]!.n;
const stored = async (id: string) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0];
const fullName = (u: { firstName: string | null; lastName: string | null }) => `${u.firstName} ${u.lastName}`;

describe('POST /api/appointments', () => {
  it('books a scheduled appointment for the caller as provider, whatever status and provider are sent', async () => {
    const patient = await insertPatient(t.db);
    const assignedNurse = await createUser(t.db, { role: 'nurse' });
    const assignedScribe = await createUser(t.db, { role: 'scribe' });
    const input = appointmentInput(patient.id, {
      appointmentDate: '2031-05-06T14:30:00-04:00',
      duration: 45,
      appointmentType: 'follow_up',
      reason: 'Knee pain',
      notes: 'Bring X-rays',
      roomNumber: ' 12B ',
      assignedNurseId: assignedNurse.id,
      assignedScribeId: assignedScribe.id,
      providerId: nurse.user.id,
      status: 'completed',
    });
    const res = await scheduler.post('/api/appointments', input);
    expect(res.statusCode).toBe(201);
    const body = ZAppointment.parse(res.json());
    expect(body).toMatchObject({
      patientId: patient.id,
      providerId: scheduler.user.id,
      status: 'scheduled',
      appointmentDate: '2031-05-06T18:30:00.000Z',
      endsAt: '2031-05-06T19:15:00.000Z',
      duration: 45,
      appointmentType: 'follow_up',
      reason: 'Knee pain',
      notes: 'Bring X-rays',
      roomNumber: '12B',
      assignedNurseId: assignedNurse.id,
      assignedScribeId: assignedScribe.id,
      checkedInAt: null,
      completedAt: null,
      patientName: fullName(patient),
      assignedNurseName: fullName(assignedNurse),
      assignedScribeName: fullName(assignedScribe),
    });

    const row = (await stored(body.id))!;
    expect(row).toMatchObject({ providerId: scheduler.user.id, status: 'scheduled', roomNumber: '12B', duration: 45 });
    expect(row.appointmentDate.toISOString()).toBe('2031-05-06T18:30:00.000Z');
    const audit = await auditTrailOfPatient(t.db, patient.id, 'appointment.create');
    expect(audit.map((a) => [a.actorId, a.entityId])).toEqual([[scheduler.user.id, body.id]]);
    await eventsDelivered();
    expect(t.events).toContainEqual({ type: 'appointment.changed', appointmentId: body.id, actorId: scheduler.user.id });
  });

  it('lets an admin book too, with the defaults of the form', async () => {
    const patient = await insertPatient(t.db);
    const { duration: _d, appointmentType: _t, ...input } = appointmentInput(patient.id, { appointmentDate: '2031-05-07T15:00:00Z' });
    const res = await admin.post('/api/appointments', { ...input, appointmentType: '' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ duration: 30, appointmentType: null, providerId: admin.user.id });
  });

  it.each(['nurse', 'scribe', 'supplier'] as const)('refuses a %s with 403 and stores nothing', async (role) => {
    const patient = await insertPatient(t.db);
    const before = await appointmentCount();
    const res = await { nurse, scribe, supplier }[role].post('/api/appointments', appointmentInput(patient.id));
    expect(res.statusCode).toBe(403);
    expect(await appointmentCount()).toBe(before);
  });

  it('refuses nobody signed in with 401', async () => {
    expect((await anonymous(t).post('/api/appointments', appointmentInput(unique()))).statusCode).toBe(401);
  });

  it.each([
    ['duration', 'not an offered choice', 20],
    ['duration', 'a string', '30'],
    ['duration', 'zero', 0],
    ['appointmentType', 'not one of the types', 'surgery'],
    ['roomNumber', '21 characters', 'x'.repeat(21)],
    ['roomNumber', 'a line break', '12\nB'],
    ['reason', 'too long', 'x'.repeat(10_001)],
    ['appointmentDate', 'not a timestamp', 'tomorrow'],
    ['appointmentDate', 'a time with no offset', '2031-05-06T14:30:00'],
    ['appointmentDate', 'a day that does not exist', '2031-02-30T10:00:00Z'],
    ['appointmentDate', 'before today', '2020-01-01T10:00:00Z'],
    ['patientId', 'not an id', 'abc'],
    ['patientId', 'missing', undefined],
    ['assignedNurseId', 'not an id', 'nurse-1'],
    ['favouriteColour', 'an unknown field', 'blue'],
  ] as const)('refuses %s (%s) with 400 naming the field, and stores nothing', async (field, _case, value) => {
    const patient = await insertPatient(t.db);
    const before = await appointmentCount();
    const res = await scheduler.post('/api/appointments', appointmentInput(patient.id, { [field]: value }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Validation failed', code: 'request.validation' });
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
    expect(await appointmentCount()).toBe(before);
  });

  it('refuses a patient who is unknown or inactive, and staff who are not active nurses and scribes', async () => {
    const inactivePatient = await insertPatient(t.db, { isActive: false });
    const aScribe = await createUser(t.db, { role: 'scribe' });
    const aNurse = await createUser(t.db, { role: 'nurse' });
    const retiredNurse = await createUser(t.db, { role: 'nurse', isActive: false });
    const patient = await insertPatient(t.db);
    const before = await appointmentCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ patientId: inactivePatient.id }, 'patientId'],
      [{ patientId: '00000000-0000-4000-8000-000000000000' }, 'patientId'],
      [{ assignedNurseId: aScribe.id }, 'assignedNurseId'],
      [{ assignedNurseId: retiredNurse.id }, 'assignedNurseId'],
      [{ assignedScribeId: aNurse.id }, 'assignedScribeId'],
      [{ assignedScribeId: '00000000-0000-4000-8000-000000000000' }, 'assignedScribeId'],
    ];
    for (const [overrides, path] of cases) {
      const res = await scheduler.post('/api/appointments', appointmentInput(patient.id, overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().errors).toEqual([{ path, message: expect.stringMatching(/^Must be an active/) }]);
    }
    expect(await appointmentCount()).toBe(before);
  });

  it('accepts a booking later today in the clinic, not one earlier than today', async () => {
    const patient = await insertPatient(t.db);
    const soon = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    expect((await scheduler.post('/api/appointments', appointmentInput(patient.id, { appointmentDate: soon }))).statusCode).toBe(201);
    const twoDaysAgo = new Date(t.clock.now().getTime() - 48 * 3_600_000).toISOString();
    expect((await scheduler.post('/api/appointments', appointmentInput(patient.id, { appointmentDate: twoDaysAgo }))).statusCode).toBe(400);
  });
});

describe('who receives names (spec section 6), checked in the raw body', () => {
  let patient: Awaited<ReturnType<typeof insertPatient>>;
  let assignedNurse: SignedIn;
  let assignedScribe: SignedIn;
  let id: string;

  beforeAll(async () => {
    patient = await insertPatient(t.db, { firstName: unique('Zelda'), lastName: unique('Quist') });
    assignedNurse = await signInAs(t, 'nurse');
    assignedScribe = await signInAs(t, 'scribe');
    const res = await scheduler.post(
      '/api/appointments',
      appointmentInput(patient.id, {
        appointmentDate: '2031-06-01T13:00:00Z',
        assignedNurseId: assignedNurse.user.id,
        assignedScribeId: assignedScribe.user.id,
      }),
    );
    expect(res.statusCode).toBe(201);
    id = res.json().id;
  });

  const readers = () =>
    [
      ['admin', admin, true, true],
      ['scheduler', scheduler, true, true],
      ['the assigned nurse', assignedNurse, true, false],
      ['the assigned scribe', assignedScribe, true, false],
      ['a nurse not assigned', nurse, false, false],
      ['a scribe not assigned', scribe, false, false],
    ] as const;

  it('lists, reads and answers with the patient (name and id) only for those who may see her, and staff ids with their names', async () => {
    for (const [who, client, seesPatient, seesStaff] of readers()) {
      for (const url of ['/api/appointments?date=2031-06-01', `/api/appointments/${id}`]) {
        const res = await client.get(url);
        expect(res.statusCode, `${who} ${url}`).toBe(200);
        for (const part of [patient.firstName, patient.lastName]) expect(res.body.includes(part), `${who} ${url} patient`).toBe(seesPatient);
        // Hidden means hidden in what is sent: no id to look her up by (security issue, finding 6).
        expect(res.body.includes(patient.id), `${who} ${url} patient id`).toBe(seesPatient);
        for (const staff of [assignedNurse.user, assignedScribe.user]) {
          expect(res.body.includes(staff.lastName!), `${who} ${url} staff`).toBe(seesStaff);
          expect(res.body.includes(staff.id), `${who} ${url} staff id`).toBe(seesStaff || staff.id === client.user.id);
        }
        const item = url.includes('?') ? res.json().find((a: { id: string }) => a.id === id) : res.json();
        expect(item.patientName, who).toBe(seesPatient ? fullName(patient) : null);
        expect(item.patientId, who).toBe(seesPatient ? patient.id : null);
        expect(item.patientRef, who).toBe(patient.id.slice(-4));
      }
    }
  });

  it("asked for one patient's appointments, a reader who may not see her gets none of them", async () => {
    for (const [who, client, seesPatient] of readers()) {
      const res = await client.get(`/api/appointments?patientId=${patient.id}`);
      expect(
        res.json().map((a: { id: string }) => a.id),
        who,
      ).toEqual(seesPatient ? [id] : []);
      expect(res.headers['x-total-count'], who).toBe(seesPatient ? '1' : '0');
    }
  });

  it('a supplier has no access to appointments at all', async () => {
    expect((await supplier.get('/api/appointments')).statusCode).toBe(403);
    expect((await supplier.get(`/api/appointments/${id}`)).statusCode).toBe(403);
    expect((await supplier.put(`/api/appointments/${id}`, { status: 'checked_in' })).statusCode).toBe(403);
    expect((await supplier.post('/api/appointments/check-missing-notes')).statusCode).toBe(403);
  });

  it('records every list read with the patients shown, hidden or not, and each record read', async () => {
    await scribe.get('/api/appointments?date=2031-06-01');
    const rows = await auditTrailOfPatient(t.db, patient.id, 'appointment.list');
    expect(rows.some((r) => r.actorId === scribe.user.id && r.patientIds?.includes(patient.id))).toBe(true);
    expect((await auditTrailOfPatient(t.db, patient.id, 'appointment.read')).map((r) => r.actorId)).toContain(nurse.user.id);
  });

  it('answers 404 for an unknown id and records the attempt', async () => {
    const unknown = '00000000-0000-4000-8000-00000000beef';
    expect((await nurse.get(`/api/appointments/${unknown}`)).statusCode).toBe(404);
    const [row] = await queryRows<{ outcome: string }>(
      t.db,
      sql`select outcome from audit_events where entity_id = ${unknown} and action = 'appointment.read'`,
    );
    expect(row?.outcome).toBe('not_found');
  });
});

describe('GET /api/appointments query', () => {
  it.each([
    ['date', 'date=2031-02-30'],
    ['date', 'date=tomorrow'],
    ['from', 'from=2031-1-1'],
    ['to', 'from=2031-01-10&to=2031-01-09'],
    ['date', 'date=2031-01-01&from=2031-01-01'],
    ['patientId', 'patientId=nope'],
    ['limit', 'limit=501'],
    ['cursor', 'cursor=nonsense'],
    ['colour', 'colour=blue'],
  ])('refuses a bad %s with 400 and the standard body (%s)', async (field, query) => {
    const res = await nurse.get(`/api/appointments?${query}`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['code', 'errors', 'message']);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('a cursor from another list is refused, not trusted', async () => {
    const foreign = Buffer.from(JSON.stringify(['smith', 'ann', '00000000-0000-4000-8000-000000000000'])).toString('base64url');
    const res = await nurse.get(`/api/appointments?cursor=${foreign}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('cursor');
  });

  it("lists one patient's appointments in time order", async () => {
    const patient = await insertPatient(t.db);
    const later = await insertAppointment(t.db, scheduler.user.id, { patientId: patient.id, appointmentDate: new Date('2031-07-02T10:00:00Z') });
    const earlier = await insertAppointment(t.db, scheduler.user.id, { patientId: patient.id, appointmentDate: new Date('2031-07-01T10:00:00Z') });
    await insertAppointment(t.db, scheduler.user.id, { appointmentDate: new Date('2031-07-01T12:00:00Z') });
    const res = await scheduler.get(`/api/appointments?patientId=${patient.id}`);
    expect(res.json().map((a: { id: string }) => a.id)).toEqual([earlier.id, later.id]);
    expect(res.headers['x-total-count']).toBe('2');
  });
});

describe('the API reference', () => {
  it('documents every appointment and staff route with its access rule and the clash body', async () => {
    const doc = (await anonymous(t).get('/api/openapi.json')).json();
    const expected = [
      ['/api/appointments', 'get', 'appointments.read'],
      ['/api/appointments', 'post', 'appointments.schedule'],
      ['/api/appointments/conflicts', 'get', 'appointments.schedule'],
      ['/api/appointments/{id}', 'get', 'appointments.read'],
      ['/api/appointments/{id}', 'put', 'appointments.update'],
      ['/api/appointments/check-missing-notes', 'post', 'appointments.schedule'],
      ['/api/staff', 'get', 'staff.list'],
      ['/api/scheduler/staff', 'get', 'staff.list'],
      ['/api/admin/users', 'get', 'users.manage'],
    ];
    for (const [path, method, access] of expected) expect(doc.paths[path!]?.[method!]?.['x-access'], `${method} ${path}`).toBe(access);
    const clash = doc.paths['/api/appointments'].post.responses['409'].content['application/json'].schema;
    expect(clash.properties.conflicts).toBeDefined();
  });
});
