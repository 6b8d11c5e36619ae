import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { patientNotes } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { auditTrailOfPatient } from '../../server/modules/audit/audit.queries.ts';
import { appointmentInput, createUser, insertAppointment, insertPatient, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let scheduler: SignedIn;
let admin: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({ CLINIC_TIME_ZONE: 'America/New_York' });
  scheduler = await signInAs(t, 'scheduler');
  admin = await signInAs(t, 'admin');
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

const noticesAbout = (entityId: string) => t.db.select().from(notifications).where(eq(notifications.entityId, entityId));
const noticeCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from notifications`))[0]!.n;

describe('scheduling tells the assigned nurse and scribe', () => {
  it('which appointment (clinic time, patient, room) they must provide notes for, live', async () => {
    const patient = await insertPatient(t.db);
    const assignedNurse = await createUser(t.db, { role: 'nurse' });
    const assignedScribe = await createUser(t.db, { role: 'scribe' });
    const res = await scheduler.post(
      '/api/appointments',
      appointmentInput(patient.id, {
        appointmentDate: '2031-03-04T15:00:00Z',
        roomNumber: '7',
        assignedNurseId: assignedNurse.id,
        assignedScribeId: assignedScribe.id,
      }),
    );
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const notices = await noticesAbout(id);
    expect(notices.map((n) => n.userId).sort()).toEqual([assignedNurse.id, assignedScribe.id].sort());
    for (const n of notices) {
      expect(n).toMatchObject({ type: 'notes_pending', title: 'Assigned to an appointment', isRead: false, isActive: true });
      // 15:00 UTC is 10:00 in New York in March (before the clocks change).
      expect(n.message).toContain(`${patient.firstName} ${patient.lastName}'s appointment on Tue, Mar 4, 2031, 10:00 AM EST, room 7`);
      expect(n.message).toContain('provide notes');
    }
    expect(notices.find((n) => n.userId === assignedNurse.id)!.message).toContain('You are the nurse');
    await eventsDelivered();
    for (const n of notices) expect(t.events).toContainEqual({ type: 'notification.created', notificationId: n.id, userId: n.userId });
  });

  it('tells nobody when nobody is assigned, and nothing when the booking is refused', async () => {
    const alone = (
      await scheduler.post('/api/appointments', appointmentInput((await insertPatient(t.db)).id, { appointmentDate: '2031-03-05T15:00:00Z' }))
    ).json();
    expect(await noticesAbout(alone.id)).toEqual([]);

    const assignedNurse = await createUser(t.db, { role: 'nurse' });
    const room = unique('Rm');
    await scheduler.post('/api/appointments', appointmentInput((await insertPatient(t.db)).id, { appointmentDate: '2031-03-06T15:00:00Z', roomNumber: room }));
    const before = await noticeCount();
    const refused = await scheduler.post(
      '/api/appointments',
      appointmentInput((await insertPatient(t.db)).id, { appointmentDate: '2031-03-06T15:00:00Z', roomNumber: room, assignedNurseId: assignedNurse.id }),
    );
    expect(refused.statusCode).toBe(409);
    expect(await noticeCount()).toBe(before);
  });

  it('on a reassignment tells the newly assigned; on a new time tells those who stay', async () => {
    const [first, second] = [await createUser(t.db, { role: 'nurse' }), await createUser(t.db, { role: 'nurse' })];
    const assignedScribe = await createUser(t.db, { role: 'scribe' });
    const created = (
      await scheduler.post(
        '/api/appointments',
        appointmentInput((await insertPatient(t.db)).id, {
          appointmentDate: '2031-07-01T14:00:00Z',
          assignedNurseId: first.id,
          assignedScribeId: assignedScribe.id,
        }),
      )
    ).json();

    await scheduler.put(`/api/appointments/${created.id}`, { assignedNurseId: second.id });
    let notices = await noticesAbout(created.id);
    expect(notices.filter((n) => n.userId === second.id).map((n) => n.title)).toEqual(['Assigned to an appointment']);
    expect(notices.filter((n) => n.userId === first.id)).toHaveLength(1);
    expect(notices.filter((n) => n.userId === assignedScribe.id)).toHaveLength(1);

    await scheduler.put(`/api/appointments/${created.id}`, { appointmentDate: '2031-07-02T14:00:00Z' });
    notices = await noticesAbout(created.id);
    const moved = notices.filter((n) => n.title === 'Appointment rescheduled');
    expect(moved.map((n) => n.userId).sort()).toEqual([second.id, assignedScribe.id].sort());
    // July: daylight time.
    expect(moved[0]!.message).toContain('Wed, Jul 2, 2031, 10:00 AM EDT');

    // A status move or a note changes nothing anyone must be told.
    const count = notices.length;
    await scheduler.put(`/api/appointments/${created.id}`, { notes: 'Bring referral' });
    await scheduler.put(`/api/appointments/${created.id}`, { status: 'checked_in' });
    expect(await noticesAbout(created.id)).toHaveLength(count);
  });
});

describe('POST /api/appointments/check-missing-notes', () => {
  const past = (iso: string) => new Date(iso);
  let staffNurse: Awaited<ReturnType<typeof createUser>>;
  let staffScribe: Awaited<ReturnType<typeof createUser>>;
  let otherScheduler: Awaited<ReturnType<typeof createUser>>;
  let retiredScheduler: Awaited<ReturnType<typeof createUser>>;
  const due: Record<string, string> = {};
  const notDue: Record<string, string> = {};

  beforeAll(async () => {
    staffNurse = await createUser(t.db, { role: 'nurse' });
    staffScribe = await createUser(t.db, { role: 'scribe' });
    otherScheduler = await createUser(t.db, { role: 'scheduler' });
    retiredScheduler = await createUser(t.db, { role: 'scheduler', isActive: false });
    const by = scheduler.user.id;
    const visit = (overrides: Parameters<typeof insertAppointment>[2]) =>
      insertAppointment(t.db, by, {
        status: 'completed',
        assignedNurseId: staffNurse.id,
        appointmentDate: past('2026-01-05T14:00:00Z'),
        checkedInAt: past('2026-01-05T13:55:00Z'),
        completedAt: past('2026-01-05T14:40:00Z'),
        ...overrides,
      });
    const note = (patientId: string, authorId: string, createdAt: Date) =>
      t.db.insert(patientNotes).values({ patientId, authorId, noteType: 'Progress Note', content: 'x', createdAt });

    due.noNote = (
      await visit({ assignedScribeId: staffScribe.id, appointmentDate: past('2026-01-06T14:00:00Z'), checkedInAt: past('2026-01-06T13:50:00Z') })
    ).id;
    const oldNote = await visit({ appointmentDate: past('2026-01-07T14:00:00Z'), checkedInAt: null });
    await note(oldNote.patientId, staffNurse.id, past('2026-01-07T13:00:00Z'));
    due.noteBeforeVisit = oldNote.id;
    const othersNote = await visit({ appointmentDate: past('2026-01-08T14:00:00Z'), checkedInAt: null });
    await note(othersNote.patientId, nurse.user.id, past('2026-01-08T15:00:00Z'));
    due.noteByAnotherNurse = othersNote.id;

    const written = await visit({ appointmentDate: past('2026-01-09T14:00:00Z'), checkedInAt: past('2026-01-09T13:50:00Z') });
    await note(written.patientId, staffNurse.id, past('2026-01-09T13:55:00Z'));
    notDue.noteSinceCheckIn = written.id;
    notDue.noNurse = (await visit({ assignedNurseId: null, assignedScribeId: staffScribe.id, appointmentDate: past('2026-01-10T14:00:00Z') })).id;
    notDue.inProgress = (await visit({ status: 'in_progress', appointmentDate: past('2026-01-11T14:00:00Z'), completedAt: null })).id;

    due.missed = (await insertAppointment(t.db, by, { appointmentDate: past('2026-01-12T14:00:00Z') })).id;
    notDue.future = (await insertAppointment(t.db, by, { appointmentDate: past('2099-01-12T14:00:00Z') })).id;
    notDue.checkedInLate = (
      await insertAppointment(t.db, by, { status: 'checked_in', checkedInAt: past('2026-01-13T14:00:00Z'), appointmentDate: past('2026-01-13T14:00:00Z') })
    ).id;
    notDue.cancelled = (await insertAppointment(t.db, by, { status: 'cancelled', appointmentDate: past('2026-01-14T14:00:00Z') })).id;
  });

  it('is for scheduler and admin only', async () => {
    const before = await noticeCount();
    expect((await nurse.post('/api/appointments/check-missing-notes')).statusCode).toBe(403);
    expect(await noticeCount()).toBe(before);
  });

  it('sends each notice once, across two runs', async () => {
    const res = await scheduler.post('/api/appointments/check-missing-notes');
    expect(res.statusCode).toBe(200);
    const schedulers = [scheduler.user.id, otherScheduler.id];
    expect(res.json()).toEqual({ notesPending: 3, visitationExpired: 1, notificationsSent: 3 + 1 + schedulers.length, more: false });

    expect((await noticesAbout(due.noNote!)).map((n) => [n.userId, n.type]).sort()).toEqual(
      [
        [staffNurse.id, 'notes_pending'],
        [staffScribe.id, 'notes_pending'],
      ].sort(),
    );
    for (const id of [due.noteBeforeVisit!, due.noteByAnotherNurse!]) {
      expect((await noticesAbout(id)).map((n) => [n.userId, n.type, n.title])).toEqual([
        [staffNurse.id, 'notes_pending', 'Notes missing for a completed visit'],
      ]);
    }
    const missed = await noticesAbout(due.missed!);
    expect(missed.map((n) => n.userId).sort()).toEqual(schedulers.sort());
    expect(missed.every((n) => n.type === 'visitation_expired')).toBe(true);
    expect(missed.some((n) => n.userId === retiredScheduler.id)).toBe(false);
    for (const id of Object.values(notDue)) expect(await noticesAbout(id), id).toEqual([]);

    const before = await noticeCount();
    const again = await admin.post('/api/appointments/check-missing-notes');
    expect(again.json()).toEqual({ notesPending: 0, visitationExpired: 0, notificationsSent: 0, more: false });
    expect(await noticeCount()).toBe(before);
  });

  it('records the run in the audit trail with the patients it concerned', async () => {
    const [appointment] = await queryRows<{ patient_id: string }>(t.db, sql`select patient_id from appointments where id = ${due.missed}`);
    const rows = await auditTrailOfPatient(t.db, appointment!.patient_id, 'appointment.check_missing_notes');
    expect(rows.map((r) => r.actorId)).toEqual([scheduler.user.id]);
  });

  it('two runs at the same moment still send each notice once', async () => {
    const missed = await insertAppointment(t.db, scheduler.user.id, { appointmentDate: past('2026-02-01T14:00:00Z') });
    const unwritten = await insertAppointment(t.db, scheduler.user.id, {
      status: 'completed',
      assignedNurseId: staffNurse.id,
      assignedScribeId: staffScribe.id,
      appointmentDate: past('2026-02-02T14:00:00Z'),
    });
    const runs = await Promise.all([scheduler.post('/api/appointments/check-missing-notes'), admin.post('/api/appointments/check-missing-notes')]);
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(runs.reduce((n, r) => n + r.json().visitationExpired, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.json().notesPending, 0)).toBe(1);
    expect(await noticesAbout(missed.id)).toHaveLength(2);
    expect(await noticesAbout(unwritten.id)).toHaveLength(2);
  });

  it('a visit whose time passed is found once its end has passed, not before', async () => {
    const startsSoon = new Date(t.clock.now().getTime() - 20 * 60_000);
    const running = await insertAppointment(t.db, scheduler.user.id, { appointmentDate: startsSoon, duration: 30 });
    await scheduler.post('/api/appointments/check-missing-notes');
    expect(await noticesAbout(running.id)).toEqual([]);
    t.clock.advance(11 * 60_000);
    await scheduler.post('/api/appointments/check-missing-notes');
    expect((await noticesAbout(running.id)).map((n) => n.type)).toEqual(['visitation_expired', 'visitation_expired']);
  });

  it('a note written meanwhile by the assigned nurse settles it', async () => {
    const appointment = await insertAppointment(t.db, scheduler.user.id, {
      status: 'completed',
      assignedNurseId: staffNurse.id,
      appointmentDate: past('2026-03-01T14:00:00Z'),
    });
    await t.db.insert(patientNotes).values({ patientId: appointment.patientId, authorId: staffNurse.id, noteType: 'Progress Note', content: 'Done' });
    await scheduler.post('/api/appointments/check-missing-notes');
    expect(await noticesAbout(appointment.id)).toEqual([]);
    const [marked] = await queryRows<{ sent: string | null }>(t.db, sql`select notes_reminder_sent_at as sent from appointments where id = ${appointment.id}`);
    expect(marked!.sent).toBeNull();
  });
});
