import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TServerMessage } from '#domain/live-events';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { appointmentInput, clockToClinicNoon, createUser, insertPatient, startedAgo } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// A notification about a task is resolved when the task is done, for everyone it went to, live;
// and a task goes only to those who can act on it (issue 29).

let t: TestApp;
let url: string;
let nurse: SignedIn;
let scribe: SignedIn;
let otherScribe: SignedIn;
let scheduler: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({ CLINIC_TIME_ZONE: 'America/New_York' });
  clockToClinicNoon(t.clock, t.config.clinicTimeZone);
  [nurse, scribe, otherScribe, scheduler, admin] = [
    await signInAs(t, 'nurse'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'scheduler'),
    await signInAs(t, 'admin'),
  ];
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

/** Each notice about a record: whose, which, and whether it still calls for attention. */
const noticesAbout = async (entityId: string) =>
  (await t.db.select().from(notifications).where(eq(notifications.entityId, entityId))).map((n) => ({ userId: n.userId, title: n.title, active: n.isActive }));
const activeFor = async (userId: string, entityId: string) =>
  (
    await t.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.entityId, entityId), eq(notifications.isActive, true)))
  ).map((n) => n.title);

describe("a note's notices", () => {
  it('resolve stage by stage, for everyone they went to, and the other scribe is told live', async () => {
    const patient = await insertPatient(t.db);
    const created = await nurse.post('/api/notes', { patientId: patient.id, noteType: 'Progress Note', content: 'BP 120/80.', status: 'submitted_to_scribe' });
    expect(created.statusCode).toBe(201);
    const note = created.json();
    expect(await activeFor(scribe.user.id, note.id)).toEqual(['Note awaiting review']);
    expect(await activeFor(otherScribe.user.id, note.id)).toEqual(['Note awaiting review']);

    const live = await openLive(url, { cookie: otherScribe.cookie });
    const reviewed = await scribe.put(`/api/notes/${note.id}`, { status: 'reviewed_by_scribe' });
    expect(reviewed.statusCode).toBe(200);
    // The other scribe's 'awaiting review' is gone from her bell at once, without a toast.
    const resolved = (await live.next((m) => m.type === 'notifications_resolved')) as Extract<TServerMessage, { type: 'notifications_resolved' }>;
    expect(resolved.notificationIds).toHaveLength(1);
    // ... and she is asked to finalize, as scribes may.
    expect(await activeFor(otherScribe.user.id, note.id)).toEqual(['Note reviewed']);
    expect(await activeFor(scribe.user.id, note.id)).toEqual([]);
    expect(await activeFor(admin.user.id, note.id)).toEqual(['Note reviewed']);
    expect(await activeFor(scheduler.user.id, note.id)).toEqual(['Note reviewed']);
    // The author cannot finalize: she is not asked to.
    expect(await noticesAbout(note.id)).not.toContainEqual(expect.objectContaining({ userId: nurse.user.id }));

    expect((await admin.put(`/api/notes/${note.id}`, { status: 'finalized' })).statusCode).toBe(200);
    for (const who of [otherScribe, scheduler, admin, scribe]) expect(await activeFor(who.user.id, note.id), who.user.role).toEqual([]);
    expect(await activeFor(nurse.user.id, note.id)).toEqual(['Note finalized']);
    live.close();
  });

  it('resolve when the note goes back to draft: nothing is asked of a draft', async () => {
    const patient = await insertPatient(t.db);
    const note = (await nurse.post('/api/notes', { patientId: patient.id, noteType: 'Progress Note', content: 'x', status: 'submitted_to_scribe' })).json();
    expect((await scribe.put(`/api/notes/${note.id}`, { status: 'draft' })).statusCode).toBe(200);
    expect((await noticesAbout(note.id)).filter((n) => n.active)).toEqual([]);
  });
});

describe("an appointment's notices", () => {
  const book = async (extra: Record<string, unknown>) => {
    const patient = await insertPatient(t.db);
    const res = await scheduler.post('/api/appointments', appointmentInput(patient.id, extra));
    expect(res.statusCode, res.body).toBe(201);
    return { ...(res.json() as { id: string; updatedAt: string }), patientId: patient.id };
  };

  it("'provide notes' resolves when its nurse writes the note once the visit began, for her and the scribe", async () => {
    const assignedNurse = await signInAs(t, 'nurse');
    const assignedScribe = await createUser(t.db, { role: 'scribe' });
    const visit = await book({
      appointmentDate: startedAgo(t.clock, -1).toISOString(),
      assignedNurseId: assignedNurse.user.id,
      assignedScribeId: assignedScribe.id,
    });
    expect(await activeFor(assignedNurse.user.id, visit.id)).toEqual(['Assigned to an appointment']);
    // A note before the visit begins is not its note.
    const early = await assignedNurse.post('/api/notes', { patientId: visit.patientId, noteType: 'Nurse Assessment', content: 'Pre-visit call' });
    expect(early.statusCode).toBe(201);
    expect(await activeFor(assignedNurse.user.id, visit.id)).toEqual(['Assigned to an appointment']);
    t.clock.advance(2 * 60_000);
    // Someone else's note is not hers.
    await nurse.post('/api/notes', { patientId: visit.patientId, noteType: 'Progress Note', content: 'Seen in passing' });
    expect(await activeFor(assignedNurse.user.id, visit.id)).toEqual(['Assigned to an appointment']);
    expect((await assignedNurse.post('/api/notes', { patientId: visit.patientId, noteType: 'Progress Note', content: 'Visit note' })).statusCode).toBe(201);
    expect(await activeFor(assignedNurse.user.id, visit.id)).toEqual([]);
    expect(await activeFor(assignedScribe.id, visit.id)).toEqual([]);
  });

  it('a cancellation resolves every notice about it; staff taken off it lose theirs, staff put on it are told', async () => {
    const first = await createUser(t.db, { role: 'nurse' });
    const second = await createUser(t.db, { role: 'nurse' });
    const visit = await book({ appointmentDate: '2031-06-02T14:00:00Z', assignedNurseId: first.id });
    expect((await scheduler.put(`/api/appointments/${visit.id}`, { assignedNurseId: second.id })).statusCode).toBe(200);
    expect(await activeFor(first.id, visit.id)).toEqual([]);
    expect(await activeFor(second.id, visit.id)).toEqual(['Assigned to an appointment']);
    // Moved: the new time replaces the old notice rather than adding to it.
    expect((await scheduler.put(`/api/appointments/${visit.id}`, { appointmentDate: '2031-06-03T14:00:00Z' })).statusCode).toBe(200);
    expect(await activeFor(second.id, visit.id)).toEqual(['Appointment rescheduled']);
    expect((await scheduler.put(`/api/appointments/${visit.id}`, { status: 'cancelled' })).statusCode).toBe(200);
    expect((await noticesAbout(visit.id)).filter((n) => n.active)).toEqual([]);
  });

  it("'time passed without a check-in' resolves for every scheduler once one of them marks the no-show", async () => {
    const otherScheduler = await createUser(t.db, { role: 'scheduler' });
    const visit = await book({ appointmentDate: startedAgo(t.clock, -1).toISOString(), duration: 15 });
    t.clock.advance(20 * 60_000);
    expect((await scheduler.post('/api/appointments/check-missing-notes', {})).statusCode).toBe(200);
    expect(await activeFor(otherScheduler.id, visit.id)).toEqual(['Appointment time passed without a check-in']);
    expect(await activeFor(scheduler.user.id, visit.id)).toEqual(['Appointment time passed without a check-in']);
    expect((await scheduler.put(`/api/appointments/${visit.id}`, { status: 'no_show' })).statusCode).toBe(200);
    expect((await noticesAbout(visit.id)).filter((n) => n.active)).toEqual([]);
  });
});

describe('GET /api/notifications', () => {
  it('keeps a resolved notification, marked inactive, so the bell can show it as done', async () => {
    const patient = await insertPatient(t.db);
    const note = (await nurse.post('/api/notes', { patientId: patient.id, noteType: 'Progress Note', content: 'y', status: 'submitted_to_scribe' })).json();
    await scribe.put(`/api/notes/${note.id}`, { status: 'reviewed_by_scribe' });
    const mine = (await otherScribe.get('/api/notifications')).json() as { entityId: string; title: string; isActive: boolean; isRead: boolean }[];
    expect(mine.filter((n) => n.entityId === note.id).map((n) => [n.title, n.isActive, n.isRead])).toEqual([
      ['Note reviewed', true, false],
      ['Note awaiting review', false, false],
    ]);
  });
});
