import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { appointments } from '../../server/db/schema/clinical.ts';
import { appointmentInput, createUser, insertAppointment, insertPatient, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let scheduler: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  scheduler = await signInAs(t, 'scheduler');
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

const appointmentCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from appointments`))[0]!.n;
const stored = async (id: string) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;

/** A day of its own for each test, so no test's bookings clash with another's. */
let dayOffset = 0;
function freshDay() {
  dayOffset += 1;
  const day = new Date(Date.UTC(2032, 0, 1) + dayOffset * 86_400_000).toISOString().slice(0, 10);
  return (time: string) => `${day}T${time}:00.000Z`;
}

async function book(overrides: Record<string, unknown>) {
  const patientId = (overrides.patientId as string | undefined) ?? (await insertPatient(t.db)).id;
  return scheduler.post('/api/appointments', appointmentInput(patientId, overrides));
}

async function staff() {
  return { nurseId: (await createUser(t.db, { role: 'nurse' })).id, scribeId: (await createUser(t.db, { role: 'scribe' })).id };
}

describe('a booking that overlaps one holding its time is refused with 409 and the list', () => {
  it.each([
    [
      'patient',
      async () => {
        const p = (await insertPatient(t.db)).id;
        return [{ patientId: p }, { patientId: p }];
      },
    ],
    [
      'room',
      async () => {
        const r = unique('Rm');
        return [{ roomNumber: r }, { roomNumber: r.toUpperCase() }];
      },
    ],
    [
      'nurse',
      async () => {
        const { nurseId } = await staff();
        return [{ assignedNurseId: nurseId }, { assignedNurseId: nurseId }];
      },
    ],
    [
      'scribe',
      async () => {
        const { scribeId } = await staff();
        return [{ assignedScribeId: scribeId }, { assignedScribeId: scribeId }];
      },
    ],
  ] as const)('same %s', async (kind, shared) => {
    const at = freshDay();
    const [first, second] = await shared();
    const existing = await book({ ...first, appointmentDate: at('10:00'), duration: 60 });
    expect(existing.statusCode).toBe(201);
    const before = await appointmentCount();
    const res = await book({ ...second, appointmentDate: at('10:45'), duration: 30 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: expect.any(String),
      code: 'appointment.conflict',
      conflicts: [{ kind, appointmentId: existing.json().id, start: at('10:00'), end: at('11:00') }],
    });
    expect(await appointmentCount()).toBe(before);
  });

  it("lists every kind of clash, and never the other patient's name", async () => {
    const at = freshDay();
    const { nurseId, scribeId } = await staff();
    const room = unique('Rm');
    const other = await insertPatient(t.db, { firstName: unique('Wilma'), lastName: unique('Xu') });
    const existing = (
      await book({ patientId: other.id, appointmentDate: at('09:00'), roomNumber: room, assignedNurseId: nurseId, assignedScribeId: scribeId })
    ).json();
    const res = await book({
      patientId: other.id,
      appointmentDate: at('09:15'),
      duration: 15,
      roomNumber: room,
      assignedNurseId: nurseId,
      assignedScribeId: scribeId,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflicts.map((c: { kind: string; appointmentId: string }) => [c.kind, c.appointmentId])).toEqual(
      ['patient', 'room', 'nurse', 'scribe'].map((kind) => [kind, existing.id]),
    );
    expect(res.body).not.toContain(other.firstName);
    expect(res.body).not.toContain(other.lastName);
  });

  it('back to back is no clash (the ranges are half-open)', async () => {
    const at = freshDay();
    const { nurseId, scribeId } = await staff();
    const patientId = (await insertPatient(t.db)).id;
    const shared = { patientId, roomNumber: unique('Rm'), assignedNurseId: nurseId, assignedScribeId: scribeId };
    expect((await book({ ...shared, appointmentDate: at('10:00'), duration: 30 })).statusCode).toBe(201);
    expect((await book({ ...shared, appointmentDate: at('10:30'), duration: 60 })).statusCode).toBe(201);
    expect((await book({ ...shared, appointmentDate: at('09:45'), duration: 15 })).statusCode).toBe(201);
  });

  it('a cancelled or missed appointment gives its time back; a completed one does not', async () => {
    const at = freshDay();
    const room = unique('Rm');
    for (const status of ['cancelled', 'no_show'] as const) {
      await insertAppointment(t.db, scheduler.user.id, { status, roomNumber: room, appointmentDate: new Date(at('08:00')) });
    }
    expect((await book({ roomNumber: room, appointmentDate: at('08:00') })).statusCode).toBe(201);

    const completedRoom = unique('Rm');
    const done = await insertAppointment(t.db, scheduler.user.id, { status: 'completed', roomNumber: completedRoom, appointmentDate: new Date(at('12:00')) });
    const res = await book({ roomNumber: completedRoom, appointmentDate: at('12:15') });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflicts[0].appointmentId).toBe(done.id);
  });

  it('is a database guarantee: a row written around the API is refused too', async () => {
    const at = freshDay();
    const room = unique('Rm');
    await insertAppointment(t.db, scheduler.user.id, { roomNumber: room, appointmentDate: new Date(at('14:00')) });
    const attempt = insertAppointment(t.db, scheduler.user.id, { roomNumber: room, appointmentDate: new Date(at('14:10')) });
    await expect(attempt).rejects.toSatisfy((e: { cause?: { code?: string } }) => e.cause?.code === '23P01');
  });
});

describe('rescheduling re-checks clashes', () => {
  it("refuses a move into another appointment's time and changes nothing", async () => {
    const at = freshDay();
    const room = unique('Rm');
    const fixed = (await book({ roomNumber: room, appointmentDate: at('11:00') })).json();
    const moving = (await book({ roomNumber: room, appointmentDate: at('13:00') })).json();
    const res = await scheduler.put(`/api/appointments/${moving.id}`, { appointmentDate: at('11:15') });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflicts).toEqual([{ kind: 'room', appointmentId: fixed.id, start: at('11:00'), end: at('11:30') }]);
    expect((await stored(moving.id)).appointmentDate.toISOString()).toBe(at('13:00'));
  });

  it('refuses assigning a nurse who is busy then', async () => {
    const at = freshDay();
    const { nurseId } = await staff();
    const busy = (await book({ assignedNurseId: nurseId, appointmentDate: at('15:00'), duration: 90 })).json();
    const other = (await book({ appointmentDate: at('16:00') })).json();
    const res = await scheduler.put(`/api/appointments/${other.id}`, { assignedNurseId: nurseId });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflicts).toEqual([{ kind: 'nurse', appointmentId: busy.id, start: at('15:00'), end: at('16:30') }]);
    expect((await stored(other.id)).assignedNurseId).toBeNull();
  });

  it('an appointment never clashes with itself: lengthening it in place is fine', async () => {
    const at = freshDay();
    const room = unique('Rm');
    const created = (await book({ roomNumber: room, appointmentDate: at('10:00') })).json();
    const res = await scheduler.put(`/api/appointments/${created.id}`, { duration: 120, appointmentDate: at('09:30') });
    expect(res.statusCode).toBe(200);
    expect(res.json().endsAt).toBe(at('11:30'));
  });
});

describe('GET /api/appointments/conflicts', () => {
  it('answers the same question before submitting', async () => {
    const at = freshDay();
    const { nurseId, scribeId } = await staff();
    const room = unique('Rm');
    const existing = (await book({ roomNumber: room, assignedNurseId: nurseId, appointmentDate: at('10:00') })).json();
    const query = new URLSearchParams({ appointmentDate: at('10:15'), duration: '30', roomNumber: room, assignedNurseId: nurseId, assignedScribeId: scribeId });
    const res = await scheduler.get(`/api/appointments/conflicts?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      conflicts: [
        { kind: 'room', appointmentId: existing.id, start: at('10:00'), end: at('10:30') },
        { kind: 'nurse', appointmentId: existing.id, start: at('10:00'), end: at('10:30') },
      ],
    });
    query.set('excludeId', existing.id);
    expect((await scheduler.get(`/api/appointments/conflicts?${query}`)).json()).toEqual({ conflicts: [] });
    query.delete('excludeId');
    query.set('appointmentDate', at('10:30'));
    expect((await scheduler.get(`/api/appointments/conflicts?${query}`)).json()).toEqual({ conflicts: [] });
  });

  it('is for those who schedule, and refuses bad input with 400', async () => {
    expect((await nurse.get(`/api/appointments/conflicts?appointmentDate=2032-01-01T10:00:00Z`)).statusCode).toBe(403);
    for (const [field, query] of [
      ['appointmentDate', 'appointmentDate=soon'],
      ['duration', 'appointmentDate=2032-01-01T10:00:00Z&duration=25'],
      ['assignedNurseId', 'appointmentDate=2032-01-01T10:00:00Z&assignedNurseId=x'],
    ] as const) {
      const res = await scheduler.get(`/api/appointments/conflicts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[0].path).toBe(field);
    }
  });
});

describe('under concurrency', () => {
  it('twenty bookings of the same room and time at once: exactly one succeeds, nineteen are told what they clash with', async () => {
    const at = freshDay();
    const room = unique('Rm');
    const patients = await Promise.all(Array.from({ length: 20 }, () => insertPatient(t.db)));
    const before = await appointmentCount();
    const results = await Promise.all(
      patients.map((p) => scheduler.post('/api/appointments', appointmentInput(p.id, { roomNumber: room, appointmentDate: at('10:00') }))),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = results.find((r) => r.statusCode === 201)!.json();
    for (const refused of results.filter((r) => r.statusCode === 409)) {
      expect(refused.json()).toMatchObject({
        code: 'appointment.conflict',
        conflicts: [{ kind: 'room', appointmentId: winner.id, start: at('10:00'), end: at('10:30') }],
      });
    }
    expect(await appointmentCount()).toBe(before + 1);
  });

  it('twenty reschedules into the same free slot at once: exactly one succeeds', async () => {
    const at = freshDay();
    const { nurseId } = await staff();
    const created = [];
    for (let i = 0; i < 20; i++) created.push((await book({ assignedNurseId: nurseId, appointmentDate: at(`${String(i).padStart(2, '0')}:00`) })).json());
    const results = await Promise.all(created.map((a) => scheduler.put(`/api/appointments/${a.id}`, { appointmentDate: at('20:30') })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
  });
});
