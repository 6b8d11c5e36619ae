import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, type TAppointmentStatus } from '#domain/appointments';
import { ANALYTICS_DAYS, TURNAROUND_WINDOW_DAYS, ZAnalytics, type TAnalytics } from '#domain/analytics';
import { NOTE_STATUSES, ZNote, type TNoteStatus } from '#domain/notes';
import { ROLES, type TRole } from '#domain/roles';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { noteRevisions, patientNotes } from '../../server/db/schema/clinical.ts';
import { insertAppointment, insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// GET /api/admin/analytics. The clock stands at noon on 2045-06-15 in New York (16:00Z, EDT),
// so the window is 2045-05-17 to 2045-06-15 and holds only the rows this file writes there.
const NOW = Date.parse('2045-06-15T16:00:00.000Z');
const HOUR = 3_600_000;

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let patientId: string;

beforeAll(async () => {
  // Long sessions: the workflow story below moves the clock by hours between its steps.
  t = await buildTestApp({ CLINIC_TIME_ZONE: 'America/New_York', SESSION_IDLE_MINUTES: '1440', SESSION_MAX_HOURS: '48' });
  t.clock.advance(NOW - Date.now());
  [admin, scheduler, nurse, scribe] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'scheduler'), signInAs(t, 'nurse'), signInAs(t, 'scribe')]);
  patientId = (await insertPatient(t.db)).id;
});
afterAll(async () => {
  await t?.close();
});

async function analytics(client: SignedIn = admin): Promise<TAnalytics> {
  const res = await client.get('/api/admin/analytics');
  expect(res.statusCode, res.body).toBe(200);
  return ZAnalytics.parse(res.json());
}

async function appointmentAt(instant: string, status: TAppointmentStatus = 'scheduled') {
  await insertAppointment(t.db, nurse.user.id, { appointmentDate: new Date(instant), status });
}

const zeros = () => Object.fromEntries(APPOINTMENT_STATUSES.map((s) => [s, 0])) as Record<TAppointmentStatus, number>;

/** A finalized note submitted `submittedAt` and finalized `finalizedAt`, its history as the workflow writes it. */
async function finalizedNote(submittedAt: number, finalizedAt: number, opts: { status?: TNoteStatus; resubmittedAt?: number } = {}) {
  const [note] = await t.db
    .insert(patientNotes)
    .values({
      patientId,
      authorId: nurse.user.id,
      noteType: 'Progress Note',
      content: 'Stable.',
      status: opts.status ?? 'finalized',
      scribeId: scribe.user.id,
      reviewedAt: new Date(finalizedAt - HOUR / 2),
      finalizedAt: new Date(finalizedAt),
    })
    .returning();
  const moves: [number, TNoteStatus, TNoteStatus][] = [[submittedAt, 'draft', 'submitted_to_scribe']];
  if (opts.resubmittedAt) moves.push([opts.resubmittedAt - 1, 'submitted_to_scribe', 'draft'], [opts.resubmittedAt, 'draft', 'submitted_to_scribe']);
  moves.push([finalizedAt - HOUR / 2, 'submitted_to_scribe', 'reviewed_by_scribe'], [finalizedAt, 'reviewed_by_scribe', 'finalized']);
  await t.db
    .insert(noteRevisions)
    .values([
      { noteId: note!.id, at: new Date(submittedAt - HOUR), actorId: nurse.user.id, action: 'created', toStatus: 'draft', contentAfter: 'Stable.' },
      ...moves.map(([at, fromStatus, toStatus]) => ({
        noteId: note!.id,
        at: new Date(at),
        actorId: nurse.user.id,
        action: 'moved' as const,
        fromStatus,
        toStatus,
      })),
    ]);
}

describe('GET /api/admin/analytics: who may read it', () => {
  it('answers admin and scheduler; refuses nurse, scribe and supplier (403) and nobody signed in (401)', async () => {
    const expected: Record<TRole, number> = { admin: 200, scheduler: 200, nurse: 403, scribe: 403, supplier: 403 };
    for (const role of ROLES) {
      const client = await signInAs(t, role);
      const res = await client.get('/api/admin/analytics');
      expect(res.statusCode, `${role}: ${res.body}`).toBe(expected[role]);
      if (res.statusCode === 200) ZAnalytics.parse(res.json());
      else expect(res.json().message).toBeTypeOf('string');
    }
    const res = await anonymous(t).get('/api/admin/analytics');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Unauthorized' });
  });

  it('is not audited: clinic-wide counts name no patient', async () => {
    const before = await t.db.$count(auditEvents);
    await analytics(scheduler);
    expect(await t.db.$count(auditEvents)).toBe(before);
  });
});

describe('appointments per clinic day', () => {
  it('lists every one of the 30 days, oldest first, zeros included, each broken down by status', async () => {
    const result = await analytics();
    expect(result).toMatchObject({ timeZone: 'America/New_York', from: '2045-05-17', to: '2045-06-15' });
    expect(result.appointmentsPerDay).toHaveLength(ANALYTICS_DAYS);
    expect(result.appointmentsPerDay[0]!.date).toBe('2045-05-17');
    expect(result.appointmentsPerDay.at(-1)!.date).toBe('2045-06-15');
    for (const day of result.appointmentsPerDay) expect(day).toEqual({ date: day.date, counts: zeros(), total: 0 });
  });

  it('counts each status on its clinic day, from midnight to midnight in the clinic, not UTC', async () => {
    for (const status of ['scheduled', 'scheduled', 'completed', 'cancelled', 'no_show', 'in_progress'] as const) {
      await appointmentAt('2045-06-01T15:00:00.000Z', status);
    }
    await appointmentAt('2045-05-17T03:59:00.000Z'); // 23:59 on 05-16 in New York: before the window
    await appointmentAt('2045-05-17T04:00:00.000Z', 'checked_in'); // midnight of 05-17: the first day
    await appointmentAt('2045-06-16T03:59:00.000Z'); // 23:59 today (still to come): today
    await appointmentAt('2045-06-16T04:00:00.000Z'); // tomorrow: after the window

    const days = new Map((await analytics()).appointmentsPerDay.map((d) => [d.date, d]));
    expect(days.size).toBe(ANALYTICS_DAYS);
    expect(days.get('2045-06-01')).toEqual({
      date: '2045-06-01',
      total: 6,
      counts: { ...zeros(), scheduled: 2, completed: 1, cancelled: 1, no_show: 1, in_progress: 1 },
    });
    expect(days.get('2045-05-17')).toEqual({ date: '2045-05-17', total: 1, counts: { ...zeros(), checked_in: 1 } });
    expect(days.get('2045-06-15')).toEqual({ date: '2045-06-15', total: 1, counts: { ...zeros(), scheduled: 1 } });
    const others = [...days.values()].filter((d) => !['2045-06-01', '2045-05-17', '2045-06-15'].includes(d.date));
    expect(others.every((d) => d.total === 0)).toBe(true);

    // The same rows read by an instance whose clinic keeps UTC fall on UTC's days.
    const utc = await buildTestApp({ CLINIC_TIME_ZONE: 'UTC' }, { sharing: t });
    try {
      utc.clock.advance(NOW - Date.now());
      const utcAdmin = await signInAs(utc, 'admin');
      const res = await utcAdmin.get('/api/admin/analytics');
      expect(res.statusCode, res.body).toBe(200);
      const utcDays = new Map(ZAnalytics.parse(res.json()).appointmentsPerDay.map((d) => [d.date, d.total]));
      expect(utcDays.get('2045-05-17')).toBe(2);
      expect(utcDays.get('2045-06-15')).toBe(0);
      expect(utcDays.get('2045-06-01')).toBe(6);
    } finally {
      await utc.close();
    }
  });
});

describe('notes by status', () => {
  it('counts every note, whatever its age, under each status, and sends no text', async () => {
    const before = new Map((await analytics()).notesByStatus.map((n) => [n.status, n.count]));
    expect([...before.keys()]).toEqual([...NOTE_STATUSES]);
    const added: TNoteStatus[] = ['draft', 'draft', 'submitted_to_scribe', 'reviewed_by_scribe', 'submitted_to_admin'];
    await t.db
      .insert(patientNotes)
      .values(
        added.map((status) => ({
          patientId,
          authorId: nurse.user.id,
          noteType: 'Progress Note',
          content: 'SECRET-CLINICAL-TEXT',
          status,
          createdAt: new Date('2001-01-01T00:00:00Z'),
          updatedAt: new Date('2001-01-01T00:00:00Z'),
        })),
      );
    const res = await admin.get('/api/admin/analytics');
    expect(res.body).not.toContain('SECRET-CLINICAL-TEXT');
    expect(res.body).not.toContain(patientId);
    const after = new Map(ZAnalytics.parse(res.json()).notesByStatus.map((n) => [n.status, n.count]));
    for (const status of NOTE_STATUSES) {
      expect(after.get(status), status).toBe(before.get(status)! + added.filter((s) => s === status).length);
    }
  });
});

describe('submitted to finalized', () => {
  it(`averages (and takes the median of) the notes finalized in the last ${TURNAROUND_WINDOW_DAYS} days, from their first submission`, async () => {
    const base = (await analytics()).turnaround;
    expect(base).toEqual({ windowDays: TURNAROUND_WINDOW_DAYS, noteCount: 0, averageSeconds: null, medianSeconds: null });

    const day = 24 * HOUR;
    await finalizedNote(NOW - 10 * day, NOW - 10 * day + 1 * HOUR);
    await finalizedNote(NOW - 5 * day, NOW - 5 * day + 2 * HOUR, { status: 'submitted_to_admin' });
    // Sent back to draft and submitted again: measured from the first submission (6 hours).
    await finalizedNote(NOW - 3 * day, NOW - 3 * day + 6 * HOUR, { resubmittedAt: NOW - 3 * day + 4 * HOUR });
    // Finalized before the window: left out.
    await finalizedNote(NOW - 100 * day, NOW - 100 * day + 50 * HOUR);
    // Finalized with no recorded submission (made before revisions were kept): left out.
    await t.db
      .insert(patientNotes)
      .values({ patientId, authorId: nurse.user.id, noteType: 'Progress Note', content: 'Old.', status: 'finalized', finalizedAt: new Date(NOW - day) });

    expect((await analytics()).turnaround).toEqual({ windowDays: TURNAROUND_WINDOW_DAYS, noteCount: 3, averageSeconds: 3 * 3600, medianSeconds: 2 * 3600 });
  });

  it('measures a note taken through the real workflow: nurse submits, scribe reviews, scheduler finalizes', async () => {
    const before = (await analytics()).turnaround;
    const created = await nurse.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'BP 120/80.', status: 'submitted_to_scribe' });
    expect(created.statusCode, created.body).toBe(201);
    t.clock.advance(3 * HOUR);
    const reviewed = await scribe.put(`/api/notes/${created.json().id}`, { updatedAt: created.json().updatedAt, status: 'reviewed_by_scribe' });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    t.clock.advance(5 * HOUR);
    const finalized = await scheduler.put(`/api/notes/${created.json().id}`, { updatedAt: reviewed.json().updatedAt, status: 'finalized' });
    expect(finalized.statusCode, finalized.body).toBe(200);
    expect(ZNote.parse(finalized.json()).status).toBe('finalized');

    const after = (await analytics()).turnaround;
    expect(after.noteCount).toBe(before.noteCount + 1);
    // The new note took 8 hours (give or take the milliseconds the requests took).
    const added = after.averageSeconds! * after.noteCount - before.averageSeconds! * before.noteCount;
    expect(added).toBeGreaterThanOrEqual(8 * 3600);
    expect(added).toBeLessThan(8 * 3600 + 60);
  });
});
