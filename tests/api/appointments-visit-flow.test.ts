import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, type TAppointmentStatus } from '#domain/appointments';
import { formatClinicTime, zonedDate, zonedDayRange } from '#domain/clinic-time';
import { appointments } from '../../server/db/schema/clinical.ts';
import { auditTrailOfPatient } from '../../server/modules/audit/audit.queries.ts';
import { appointmentInput, clockToClinicNoon, insertAppointment, insertPatient, startedAgo, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let clients: Record<'admin' | 'scheduler' | 'nurse' | 'scribe' | 'supplier', SignedIn>;

beforeAll(async () => {
  t = await buildTestApp();
  clockToClinicNoon(t.clock, t.config.clinicTimeZone);
  const roles = ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'] as const;
  clients = Object.fromEntries(await Promise.all(roles.map(async (r) => [r, await signInAs(t, r)] as const))) as typeof clients;
});
afterAll(async () => {
  await t?.close();
});

const stored = async (id: string) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
/** An appointment in a status, by default one whose time has come today: every move's timing allows it. */
const inStatus = (status: TAppointmentStatus, overrides: Parameters<typeof insertAppointment>[2] = {}) =>
  insertAppointment(t.db, clients.scheduler.user.id, { status, appointmentDate: startedAgo(t.clock, 60), ...overrides });
/** Minutes from the test clock's now, as the API's ISO text. */
const inMinutes = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000).toISOString();

/**
 * The visit flow written out independently of domain/workflows.ts: each legal move and the roles
 * that may make it. Everything else is refused: 409 when the move does not exist, 403 when it
 * does but not for the role (and 403 for a scribe or supplier, who may not change appointments).
 */
const LEGAL: Record<string, readonly string[]> = {
  'scheduled>checked_in': ['admin', 'scheduler', 'nurse'],
  'checked_in>in_progress': ['admin', 'scheduler', 'nurse'],
  'in_progress>completed': ['admin', 'scheduler', 'nurse'],
  'scheduled>cancelled': ['admin', 'scheduler'],
  'checked_in>cancelled': ['admin', 'scheduler'],
  'scheduled>no_show': ['admin', 'scheduler'],
  'checked_in>no_show': ['admin', 'scheduler'],
};

function expectedStatus(role: string, from: string, to: string): 200 | 403 | 409 {
  if (role === 'scribe' || role === 'supplier') return 403;
  const roles = LEGAL[`${from}>${to}`];
  if (!roles) return 409;
  return roles.includes(role) ? 200 : 403;
}

describe('every move, by every role', () => {
  it.each(['admin', 'scheduler', 'nurse', 'scribe', 'supplier'] as const)('%s: legal moves apply, others are refused and change nothing', async (role) => {
    for (const from of APPOINTMENT_STATUSES) {
      for (const to of APPOINTMENT_STATUSES.filter((s) => s !== from)) {
        const appointment = await inStatus(from);
        t.clock.advance(1000);
        const res = await clients[role].put(`/api/appointments/${appointment.id}`, { status: to });
        const expected = expectedStatus(role, from, to);
        expect(res.statusCode, `${role} ${from} > ${to}`).toBe(expected);
        const row = await stored(appointment.id);
        if (expected === 200) {
          expect(row.status).toBe(to);
          expect(res.json().status).toBe(to);
          const now = t.clock.now().getTime();
          if (to === 'checked_in') expect(Math.abs(row.checkedInAt!.getTime() - now)).toBeLessThan(1000);
          else expect(row.checkedInAt).toBeNull();
          if (to === 'completed') expect(Math.abs(row.completedAt!.getTime() - now)).toBeLessThan(1000);
          else expect(row.completedAt).toBeNull();
          expect((await auditTrailOfPatient(t.db, appointment.patientId, `appointment.${to}`)).map((a) => a.actorId)).toEqual([clients[role].user.id]);
        } else {
          expect(res.json().code, `${role} ${from} > ${to}`).toBe(expected === 409 ? 'workflow.illegalMove' : 'auth.forbidden');
          expect(row.status).toBe(from);
          expect(row.updatedAt.getTime()).toBe(appointment.updatedAt.getTime());
        }
      }
    }
  });
});

describe('the visit flow', () => {
  it('stamps check-in and completion from the server clock, whatever the client sends', async () => {
    const appointment = await inStatus('scheduled');
    const { nurse } = clients;
    const res = await nurse.put(`/api/appointments/${appointment.id}`, { status: 'checked_in', checkedInAt: '2001-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(200);
    expect(new Date(res.json().checkedInAt).getFullYear()).toBe(t.clock.now().getFullYear());
    await nurse.put(`/api/appointments/${appointment.id}`, { status: 'in_progress' });
    const done = await nurse.put(`/api/appointments/${appointment.id}`, { status: 'completed', completedAt: '2001-01-01T00:00:00Z' });
    expect(done.statusCode).toBe(200);
    const row = await stored(appointment.id);
    expect(row.completedAt!.getFullYear()).toBe(t.clock.now().getFullYear());
    expect(row.status).toBe('completed');
  });

  it('keeps the reason given for a cancellation or a no-show', async () => {
    const cancelled = await inStatus('scheduled');
    const res = await clients.scheduler.put(`/api/appointments/${cancelled.id}`, { status: 'cancelled', statusReason: '  Patient has the flu ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().statusReason).toBe('Patient has the flu');
    expect((await stored(cancelled.id)).statusReason).toBe('Patient has the flu');

    const missed = await inStatus('checked_in');
    expect((await clients.admin.put(`/api/appointments/${missed.id}`, { status: 'no_show' })).json().statusReason).toBeNull();
  });

  it('refuses a reason with any other move, or with none, and changes nothing', async () => {
    const appointment = await inStatus('scheduled');
    for (const body of [{ status: 'checked_in', statusReason: 'Early' }, { statusReason: 'Just because' }]) {
      const res = await clients.scheduler.put(`/api/appointments/${appointment.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'statusReason', message: expect.any(String) }]);
    }
    expect((await stored(appointment.id)).status).toBe('scheduled');
  });

  it('refuses an unknown status with 400', async () => {
    const appointment = await inStatus('scheduled');
    const res = await clients.nurse.put(`/api/appointments/${appointment.id}`, { status: 'done' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('status');
  });

  it("lets a nurse check in an appointment she is not assigned to, still without the patient's name", async () => {
    const patient = await insertPatient(t.db, { firstName: unique('Yara'), lastName: unique('Voss') });
    const appointment = await inStatus('scheduled', { patientId: patient.id });
    const res = await clients.nurse.put(`/api/appointments/${appointment.id}`, { status: 'checked_in' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(patient.firstName);
    expect(res.body).not.toContain(patient.lastName);
    expect(res.json().patientName).toBeNull();
  });

  it('answers 404 for an unknown appointment and 400 for a malformed id', async () => {
    expect((await clients.nurse.put('/api/appointments/00000000-0000-4000-8000-000000000000', { status: 'checked_in' })).statusCode).toBe(404);
    const bad = await clients.nurse.put('/api/appointments/123', { status: 'checked_in' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('id');
  });
});

describe("a visit's moves follow its time (issue 29)", () => {
  const move = (id: string, body: Record<string, unknown>, who: SignedIn = clients.nurse) => who.put(`/api/appointments/${id}`, body);
  const expectNotNow = async (res: Awaited<ReturnType<typeof move>>, id: string, status: TAppointmentStatus, updatedAt: Date) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'appointment.notNow', message: expect.stringMatching(/^This visit /) });
    const row = await stored(id);
    expect(row.status).toBe(status);
    expect(row.updatedAt.getTime()).toBe(updatedAt.getTime());
    expect(row.checkedInAt).toBeNull();
  };

  it("checks in and starts a visit only on its clinic day: not tomorrow's, not yesterday's", async () => {
    const tomorrow = await inStatus('scheduled', { appointmentDate: new Date(t.clock.now().getTime() + 21 * 3_600_000) });
    await expectNotNow(await move(tomorrow.id, { status: 'checked_in' }), tomorrow.id, 'scheduled', tomorrow.updatedAt);
    const yesterday = await inStatus('scheduled', { appointmentDate: new Date(t.clock.now().getTime() - 13 * 3_600_000) });
    await expectNotNow(
      await move(yesterday.id, { status: 'checked_in', checkedInAt: t.clock.now().toISOString() }),
      yesterday.id,
      'scheduled',
      yesterday.updatedAt,
    );
    const checkedInYesterday = await inStatus('checked_in', { appointmentDate: new Date(t.clock.now().getTime() - 13 * 3_600_000) });
    const start = await move(checkedInYesterday.id, { status: 'in_progress' });
    expect(start.json().code).toBe('appointment.notNow');
    // Later today, before its time: the patient is here early, and may be checked in and seen.
    const later = await inStatus('scheduled', { appointmentDate: new Date(t.clock.now().getTime() + 3 * 3_600_000) });
    expect((await move(later.id, { status: 'checked_in' })).statusCode).toBe(200);
    expect((await move(later.id, { status: 'in_progress' })).statusCode).toBe(200);
  });

  it('completes a visit only once its booked time has come, and says when', async () => {
    // Within the session's idle time: the clock moves past it below, and the callers stay signed in.
    const at = new Date(t.clock.now().getTime() + 10 * 60_000);
    const visit = await inStatus('in_progress', { appointmentDate: at });
    const early = await move(visit.id, { status: 'completed', completedAt: t.clock.now().toISOString() });
    await expectNotNow(early, visit.id, 'in_progress', visit.updatedAt);
    expect(early.json().message).toContain(formatClinicTime(at, t.config.clinicTimeZone));
    expect((await stored(visit.id)).completedAt).toBeNull();
    t.clock.advance(11 * 60_000);
    const done = await move(visit.id, { status: 'completed' });
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('completed');
  });

  it('marks a no-show only once the visit was due; cancels at any time', async () => {
    const due = new Date(t.clock.now().getTime() + 10 * 60_000);
    const visit = await inStatus('scheduled', { appointmentDate: due });
    await expectNotNow(await move(visit.id, { status: 'no_show' }, clients.scheduler), visit.id, 'scheduled', visit.updatedAt);
    const nextWeek = await inStatus('scheduled', { appointmentDate: new Date(t.clock.now().getTime() + 7 * 86_400_000) });
    expect((await move(nextWeek.id, { status: 'cancelled' }, clients.scheduler)).statusCode).toBe(200);
    t.clock.advance(11 * 60_000);
    expect((await move(visit.id, { status: 'no_show' }, clients.scheduler)).statusCode).toBe(200);
  });

  it("takes the visit's time as the request leaves it: rescheduled to now and checked in at once", async () => {
    const created = (
      await clients.scheduler.post('/api/appointments', appointmentInput((await insertPatient(t.db)).id, { appointmentDate: '2031-05-05T14:00:00Z' }))
    ).json();
    const res = await move(created.id, { status: 'checked_in', appointmentDate: inMinutes(1) }, clients.scheduler);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('checked_in');
  });

  it('answers who may move before when: a nurse marking a no-show is 403 whatever the hour', async () => {
    const tomorrow = await inStatus('scheduled', { appointmentDate: new Date(t.clock.now().getTime() + 21 * 3_600_000) });
    expect((await move(tomorrow.id, { status: 'no_show' })).json().code).toBe('auth.forbidden');
  });
});

describe('rescheduling', () => {
  const booked = async (overrides: Record<string, unknown> = {}) => {
    const patient = await insertPatient(t.db);
    const res = await clients.scheduler.post('/api/appointments', appointmentInput(patient.id, { appointmentDate: '2031-09-01T14:00:00Z', ...overrides }));
    expect(res.statusCode).toBe(201);
    return res.json();
  };

  it('moves the time, duration and room for a scheduler, and records it', async () => {
    const created = await booked();
    const room = unique('R');
    const res = await clients.scheduler.put(`/api/appointments/${created.id}`, { appointmentDate: '2031-09-02T15:00:00Z', duration: 60, roomNumber: room });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ appointmentDate: '2031-09-02T15:00:00.000Z', endsAt: '2031-09-02T16:00:00.000Z', duration: 60, roomNumber: room });
    expect(await auditTrailOfPatient(t.db, created.patientId, 'appointment.reschedule')).toHaveLength(1);
  });

  it('is refused to a nurse (403), who may not change the booking at all', async () => {
    const created = await booked();
    for (const body of [{ appointmentDate: '2031-09-03T15:00:00Z' }, { notes: 'Moved' }, { status: 'checked_in', roomNumber: 'X1' }]) {
      expect((await clients.nurse.put(`/api/appointments/${created.id}`, body)).statusCode).toBe(403);
    }
    const row = await stored(created.id);
    expect(row).toMatchObject({ status: 'scheduled', notes: null, roomNumber: null });
    expect(row.appointmentDate.toISOString()).toBe('2031-09-01T14:00:00.000Z');
  });

  it('is refused once the visit has started, or the appointment is over or cancelled (409)', async () => {
    for (const status of ['in_progress', 'completed', 'cancelled', 'no_show'] as const) {
      const appointment = await inStatus(status, { appointmentDate: new Date('2031-09-04T10:00:00Z') });
      const res = await clients.scheduler.put(`/api/appointments/${appointment.id}`, { appointmentDate: '2031-09-05T10:00:00Z' });
      expect(res.statusCode, status).toBe(409);
      expect(res.json().code).toBe('workflow.illegalMove');
      expect((await stored(appointment.id)).appointmentDate.toISOString()).toBe('2031-09-04T10:00:00.000Z');
    }
    // Notes on a finished appointment are still the scheduler's to keep.
    const done = await inStatus('completed');
    expect((await clients.scheduler.put(`/api/appointments/${done.id}`, { notes: 'Paid at the desk' })).statusCode).toBe(200);
  });

  it('is allowed for a checked-in appointment, not in the same request as cancelling it', async () => {
    const created = await booked({ appointmentDate: inMinutes(30) });
    await clients.scheduler.put(`/api/appointments/${created.id}`, { status: 'checked_in' });
    expect((await clients.scheduler.put(`/api/appointments/${created.id}`, { roomNumber: unique('R') })).statusCode).toBe(200);
    const both = await clients.scheduler.put(`/api/appointments/${created.id}`, { status: 'cancelled', roomNumber: unique('R') });
    expect(both.statusCode).toBe(409);
    expect((await stored(created.id)).status).toBe('checked_in');
  });

  it('refuses a move to before today, and an appointment moving to another patient (400)', async () => {
    const created = await booked();
    const past = await clients.scheduler.put(`/api/appointments/${created.id}`, { appointmentDate: '2020-01-01T10:00:00Z' });
    expect(past.json().errors[0].path).toBe('appointmentDate');
    const other = await insertPatient(t.db);
    const moved = await clients.scheduler.put(`/api/appointments/${created.id}`, { patientId: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors[0].path).toBe('patientId');
    expect((await stored(created.id)).patientId).toBe(created.patientId);
  });
});

describe('editing what was read', () => {
  it('accepts the appointment read back with a change, ignoring what the server sets', async () => {
    const patient = await insertPatient(t.db);
    const created = (await clients.scheduler.post('/api/appointments', appointmentInput(patient.id, { appointmentDate: inMinutes(30) }))).json();
    t.clock.advance(1000);
    const res = await clients.scheduler.put(`/api/appointments/${created.id}`, {
      ...created,
      status: 'checked_in',
      providerId: clients.nurse.user.id,
      patientName: 'Someone Else',
      completedAt: '2031-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(200);
    const row = await stored(created.id);
    expect(row).toMatchObject({ status: 'checked_in', providerId: clients.scheduler.user.id, completedAt: null });
  });

  it("refuses a stale edit with 409 and keeps the other person's change", async () => {
    const appointment = await inStatus('scheduled');
    const read = (await clients.scheduler.get(`/api/appointments/${appointment.id}`)).json();
    t.clock.advance(1000);
    expect((await clients.admin.put(`/api/appointments/${appointment.id}`, { notes: 'First', updatedAt: read.updatedAt })).statusCode).toBe(200);
    const late = await clients.scheduler.put(`/api/appointments/${appointment.id}`, { notes: 'Second', updatedAt: read.updatedAt });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('record.stale');
    expect((await stored(appointment.id)).notes).toBe('First');
  });

  it('refuses junk in the fields it ignores: they may only hold what such a field holds', async () => {
    const appointment = await inStatus('scheduled');
    for (const body of [{ patientName: 'x'.repeat(100_000) }, { providerId: { id: 'x' } }, { checkedInAt: ['2026-01-01'] }]) {
      const res = await clients.scheduler.put(`/api/appointments/${appointment.id}`, { ...body, notes: 'Changed' });
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.json().errors[0].path).toBe(Object.keys(body)[0]);
    }
    expect((await stored(appointment.id)).notes).toBeNull();
  });

  it('refuses an id that is not the one in the path', async () => {
    const appointment = await inStatus('scheduled');
    const res = await clients.scheduler.put(`/api/appointments/${appointment.id}`, { id: '00000000-0000-4000-8000-000000000000', notes: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('id');
  });

  it('writes nothing when nothing changed', async () => {
    const appointment = await inStatus('scheduled', { notes: 'Same' });
    const res = await clients.scheduler.put(`/api/appointments/${appointment.id}`, { status: 'scheduled', notes: 'Same' });
    expect(res.statusCode).toBe(200);
    expect((await stored(appointment.id)).updatedAt.getTime()).toBe(appointment.updatedAt.getTime());
    expect(await auditTrailOfPatient(t.db, appointment.patientId)).toHaveLength(0);
  });
});

describe("today's count on the dashboard", () => {
  it('follows bookings and cancellations at once', async () => {
    const count = async () => (await clients.nurse.get('/api/dashboard/stats')).json().todayAppointments as number;
    const before = await count();
    const patient = await insertPatient(t.db);
    const soon = new Date(Math.min(t.clock.now().getTime() + 60_000, endOfClinicDay() - 31 * 60_000));
    const created = await clients.scheduler.post('/api/appointments', appointmentInput(patient.id, { appointmentDate: soon.toISOString() }));
    expect(created.statusCode).toBe(201);
    expect(await count()).toBe(before + 1);
    await clients.scheduler.put(`/api/appointments/${created.json().id}`, { status: 'cancelled' });
    expect(await count()).toBe(before);
  });
});

/** The end of the clinic's today, so a booking made "soon" stays on today. */
const endOfClinicDay = () => zonedDayRange(zonedDate(t.clock.now(), t.config.clinicTimeZone), t.config.clinicTimeZone).end.getTime();
