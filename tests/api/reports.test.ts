import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type { TAppointmentStatus, TAppointmentType } from '#domain/appointments';
import { formatReportValue } from '#domain/report-format';
import { REPORT_IDS, ZReport, type TReport, type TReportId } from '#domain/reports';
import type { TNoteStatus } from '#domain/notes';
import { appointments, labOrders, noteRevisions, patientNotes, supplyOrders } from '../../server/db/schema/clinical.ts';
import { supplyItems } from '../../server/db/schema/supplies.ts';
import { insertAppointment, insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Reports (issue 34) over a fixed data set with every expected figure worked out by hand (the
 * comments give the sums). The clinic is in New York; the range is Monday 2045-03-06 to Sunday
 * 2045-03-19, and clocks go forward at 02:00 on Sunday 2045-03-12: that week's Sunday is 23
 * hours long, and a visit at 23:30 that Sunday is 03:30Z on Monday, so a report that took days
 * in UTC would put it in the wrong week.
 */
const ZONE = 'America/New_York';
const RANGE = 'from=2045-03-06&to=2045-03-19';
/** New York wall time: EST (-05:00) before 2045-03-12 02:00, EDT (-04:00) from then. */
const est = (local: string) => new Date(`2045-03-${local}-05:00`);
const edt = (local: string) => new Date(`2045-03-${local}-04:00`);
const HOUR = 3_600_000;

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;

async function report(id: TReportId, query = '', client: SignedIn = admin): Promise<TReport> {
  const res = await client.get(`/api/reports/${id}?${RANGE}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return ZReport.parse(res.json());
}

/** The table as plain objects keyed by column key, the first column's label first. */
const table = (r: TReport) => r.rows;
const metricsOf = (r: TReport) => Object.fromEntries(r.metrics.map((m) => [m.key, m.value]));

async function visit(
  providerId: string,
  start: Date,
  duration: number,
  status: TAppointmentStatus,
  more: { room?: string | null; type?: TAppointmentType | null; cancelledAt?: Date | null; nurseId?: string; scribeId?: string; patientId?: string } = {},
) {
  const ended = new Date(start.getTime() + duration * 60_000);
  return insertAppointment(t.db, providerId, {
    appointmentDate: start,
    duration,
    status,
    roomNumber: more.room ?? null,
    appointmentType: more.type ?? null,
    cancelledAt: more.cancelledAt ?? null,
    assignedNurseId: more.nurseId ?? null,
    assignedScribeId: more.scribeId ?? null,
    checkedInAt: status === 'completed' ? start : null,
    completedAt: status === 'completed' ? ended : null,
    ...(more.patientId ? { patientId: more.patientId } : {}),
  });
}

/** A note with its history as the workflow writes it: each [actor, action, to status, at]. */
async function noteWithHistory(
  patientId: string,
  authorId: string,
  status: TNoteStatus,
  history: [string, 'created' | 'moved' | 'amended', TNoteStatus, Date][],
) {
  const [note] = await t.db.insert(patientNotes).values({ patientId, authorId, noteType: 'Progress Note', content: 'Seen.', status }).returning();
  let previous: TNoteStatus | null = null;
  for (const [actorId, action, toStatus, at] of history) {
    await t.db.insert(noteRevisions).values({ noteId: note!.id, at, actorId, action, fromStatus: action === 'moved' ? previous : null, toStatus });
    if (action !== 'amended') previous = toStatus;
  }
  return note!;
}

beforeAll(async () => {
  t = await buildTestApp({ CLINIC_TIME_ZONE: ZONE, SESSION_IDLE_MINUTES: '1440', SESSION_MAX_HOURS: '48' });
  t.clock.advance(edt('20T12:00:00').getTime() - Date.now());
  [admin, scheduler, nurse, scribe, supplier] = await Promise.all([
    signInAs(t, 'admin'),
    signInAs(t, 'scheduler'),
    signInAs(t, 'nurse'),
    signInAs(t, 'scribe'),
    signInAs(t, 'supplier'),
  ]);
  const saved = await admin.put('/api/admin/settings', {
    clinicName: 'Reports Clinic',
    timeZone: ZONE,
    sessionIdleMinutes: 480,
    rooms: ['1', '2'],
    // Sunday opens 01:00 to 05:00, across the hour DST skips: 3 hours on 2045-03-12, 4 on 03-19.
    openingHours: {
      monday: { opens: '09:00', closes: '17:00' },
      tuesday: { opens: '09:00', closes: '17:00' },
      wednesday: { opens: '09:00', closes: '17:00' },
      thursday: { opens: '09:00', closes: '17:00' },
      friday: { opens: '09:00', closes: '17:00' },
      saturday: { opens: '09:00', closes: '13:00' },
      sunday: { opens: '01:00', closes: '05:00' },
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);

  const p1 = admin.user.id;
  const p2 = scheduler.user.id;
  const n = nurse.user.id;
  const s = scribe.user.id;
  const [pa, pb, pc] = await Promise.all([insertPatient(t.db), insertPatient(t.db), insertPatient(t.db)]);
  // Week of 03-06 (EST but for its last hours).
  await visit(p1, est('06T09:00:00'), 30, 'completed', { room: '1', type: 'consultation', nurseId: n, scribeId: s, patientId: pa.id }); // A1
  await visit(p1, est('06T10:00:00'), 60, 'no_show', { room: '1', type: 'follow_up' }); // A2
  await visit(p2, est('07T09:00:00'), 30, 'cancelled', { room: '2', type: 'consultation', cancelledAt: est('06T20:00:00') }); // A3: 13 h notice, late
  await visit(p2, est('08T14:00:00'), 30, 'cancelled', { room: '2', cancelledAt: est('01T10:00:00') }); // A4: a week's notice
  await visit(p1, edt('12T23:30:00'), 60, 'completed', { type: 'urgent_care', nurseId: n, patientId: pb.id }); // A5: no room, ends 00:30 Monday
  await visit(p1, est('12T01:00:00'), 60, 'completed', { room: '1' }); // A6: the short Sunday, 06:00Z-07:00Z
  // Week of 03-13 (EDT).
  await visit(p1, edt('13T09:00:00'), 30, 'no_show', { room: '1', type: 'consultation' }); // A7
  await visit(p1, edt('13T09:30:00'), 30, 'completed', { room: '1', type: 'consultation', nurseId: n, scribeId: s, patientId: pc.id }); // A8
  await visit(p2, edt('13T11:00:00'), 30, 'cancelled', { room: '2' }); // A9: cancelled before the time was kept
  await visit(p2, edt('14T16:45:00'), 60, 'completed', { room: '2', type: 'follow_up', scribeId: s }); // A10: runs 45 min past closing
  // Outside the range: never counted.
  await visit(p1, est('05T10:00:00'), 30, 'no_show', { room: '1' });
  await visit(p1, edt('20T09:00:00'), 30, 'no_show', { room: '1' });

  // Notes. Note 1 is about A5 (ended 00:30 on 03-13), note 2 about A1 (drafted during it), note 3 about A8.
  await noteWithHistory(pb.id, n, 'finalized', [
    [n, 'created', 'draft', edt('13T08:30:00')],
    [n, 'moved', 'submitted_to_scribe', edt('13T10:30:00')],
    [s, 'moved', 'reviewed_by_scribe', edt('13T14:30:00')],
    [p1, 'moved', 'finalized', edt('14T09:30:00')],
  ]);
  await noteWithHistory(pa.id, n, 'finalized', [
    [n, 'created', 'draft', est('06T09:15:00')],
    [n, 'moved', 'submitted_to_scribe', est('06T10:15:00')],
    [s, 'moved', 'reviewed_by_scribe', est('06T12:15:00')],
    [s, 'moved', 'draft', est('06T12:30:00')],
    [n, 'moved', 'submitted_to_scribe', est('06T13:00:00')],
    [s, 'moved', 'reviewed_by_scribe', est('06T13:30:00')],
    [p2, 'moved', 'finalized', est('07T10:15:00')],
    [p1, 'amended', 'finalized', est('08T10:00:00')],
  ]);
  await noteWithHistory(pc.id, n, 'submitted_to_scribe', [
    [n, 'created', 'draft', edt('13T09:45:00')],
    [n, 'moved', 'submitted_to_scribe', edt('13T11:45:00')],
  ]);

  // Lab orders (now is 03-20 12:00 EDT).
  const lab = (values: Partial<typeof labOrders.$inferInsert>) =>
    t.db.insert(labOrders).values({ patientId: pa.id, providerId: p1, orderName: 'CBC', ...values });
  await lab({
    priority: 'routine',
    status: 'received',
    orderedAt: est('06T09:00:00'),
    receivedAt: est('07T09:00:00'),
    firstReviewedAt: est('07T13:00:00'),
    reviewedAt: edt('15T10:00:00'),
  });
  await lab({ priority: 'routine', status: 'received', orderedAt: est('08T09:00:00'), receivedAt: est('08T21:00:00') });
  await lab({
    priority: 'stat',
    status: 'received',
    orderedAt: edt('13T10:00:00'),
    receivedAt: edt('13T11:00:00'),
    firstReviewedAt: edt('13T11:30:00'),
    reviewedAt: edt('13T11:30:00'),
  });
  await lab({ priority: 'urgent', status: 'pending', orderedAt: edt('14T09:00:00'), expectedOn: '2045-03-16' });

  // Supply orders and stock.
  const line = (quantity: number, receivedQuantity: number | null) => ({
    itemId: crypto.randomUUID(),
    name: 'Gauze',
    unit: 'box',
    quantity,
    unitPriceCents: 100,
    lineTotalCents: 100 * quantity,
    receivedQuantity,
  });
  const order = (n: number, values: Partial<typeof supplyOrders.$inferInsert>) =>
    t.db.insert(supplyOrders).values({ orderNumber: `SO-2045-${n}`, supplierId: supplier.user.id, requestedById: p2, items: [line(10, null)], ...values });
  await order(1, {
    status: 'completed',
    orderedAt: est('06T09:00:00'),
    readyAt: est('07T09:00:00'),
    pickedUpAt: est('07T15:00:00'),
    items: [line(10, 8), line(5, 5)],
  });
  await order(2, { status: 'cancelled', orderedAt: edt('13T09:00:00') });
  await order(3, { status: 'ready_for_pickup', orderedAt: edt('14T09:00:00'), readyAt: edt('14T21:00:00') });
  await t.db.insert(supplyItems).values([
    { name: 'Gloves', unit: 'box', reorderPoint: 5, parLevel: 10 },
    { name: 'Syringes', unit: 'box', reorderPoint: 0, parLevel: 0, isActive: false },
  ]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the golden data set', () => {
  it('no-shows by week: the DST Sunday visit at 23:30 counts in its own week', async () => {
    const r = await report('no-shows');
    expect(r.query.groupBy).toBe('week');
    expect(table(r)).toEqual([
      // A1..A6: completed A1, A5, A6; no-show A2 (1 / 4); late A3, other A4.
      { week: '2045-03-06', booked: 6, completed: 3, noShows: 1, noShowRate: 25, lateCancellations: 1, otherCancellations: 1 },
      // A7..A10: completed A8, A10; no-show A7 (1 / 3); A9 has no recorded time, so not late.
      { week: '2045-03-13', booked: 4, completed: 2, noShows: 1, noShowRate: 33.3, lateCancellations: 0, otherCancellations: 1 },
    ]);
    expect(metricsOf(r)).toEqual({ noShowRate: 28.6, noShows: 2, lateCancellations: 1, booked: 10 });
  });

  it('no-shows by provider and by type, and filtered', async () => {
    const byProvider = await report('no-shows', '&groupBy=provider');
    const rows = Object.fromEntries(byProvider.rows.map(({ provider, ...rest }) => [provider, rest]));
    expect(Object.values(rows)).toHaveLength(2);
    expect(Object.values(rows)).toEqual(
      expect.arrayContaining([
        { booked: 6, completed: 4, noShows: 2, noShowRate: 33.3, lateCancellations: 0, otherCancellations: 0 },
        { booked: 4, completed: 1, noShows: 0, noShowRate: 0, lateCancellations: 1, otherCancellations: 2 },
      ]),
    );
    expect(table(await report('no-shows', '&groupBy=type'))).toEqual([
      { type: 'Consultation', booked: 4, completed: 2, noShows: 1, noShowRate: 33.3, lateCancellations: 1, otherCancellations: 0 },
      { type: 'Follow-up', booked: 2, completed: 1, noShows: 1, noShowRate: 50, lateCancellations: 0, otherCancellations: 0 },
      { type: 'General', booked: 3, completed: 1, noShows: 0, noShowRate: 0, lateCancellations: 0, otherCancellations: 2 },
      { type: 'Urgent care', booked: 1, completed: 1, noShows: 0, noShowRate: 0, lateCancellations: 0, otherCancellations: 0 },
    ]);
    const filtered = await report('no-shows', `&providerId=${scheduler.user.id}&appointmentType=general`);
    expect(metricsOf(filtered)).toEqual({ noShowRate: null, noShows: 0, lateCancellations: 0, booked: 2 });
  });

  it('a shorter late-cancellation window makes the 13-hour notice an ordinary one', async () => {
    await t.db.execute(`update clinic_settings set late_cancel_hours = 12` as never);
    try {
      // The settings are re-read within their revalidation window; move past it.
      t.clock.advance(10_000);
      expect(metricsOf(await report('no-shows')).lateCancellations).toBe(0);
    } finally {
      await t.db.execute(`update clinic_settings set late_cancel_hours = 24` as never);
      t.clock.advance(10_000);
    }
    expect(metricsOf(await report('no-shows')).lateCancellations).toBe(1);
  });

  it('schedule use: the opening hours of two rooms, the 23-hour Sunday three hours long', async () => {
    const r = await report('schedule-use');
    expect(table(r)).toEqual([
      // Open: 5 x 480 x 2 + 240 x 2 + 180 x 2 = 5,640. Booked in rooms: A1 30 + A2 60 + A6 60 = 150 (A5 has no room and is outside hours).
      // Gaps: Mon room 1: 30 and 360; every other open room-day is one gap: 15 gaps, 5,490 minutes.
      { week: '2045-03-06', capacityMinutes: 5640, bookedMinutes: 150, use: 2.7, idleGaps: 15, idleGapMinutes: 5490, unplacedMinutes: 0 },
      // Open: 4,800 + 480 + 240 x 2 = 5,760. Booked: A7 30 + A8 30 + A10 15 (clipped at 17:00) = 75; 14 gaps, 5,685 minutes.
      { week: '2045-03-13', capacityMinutes: 5760, bookedMinutes: 75, use: 1.3, idleGaps: 14, idleGapMinutes: 5685, unplacedMinutes: 0 },
    ]);
    expect(metricsOf(r)).toEqual({ use: 2, bookedMinutes: 225, capacityMinutes: 11400, idleGaps: 29 });
    const days = await report('schedule-use', '&groupBy=day');
    expect(days.rows).toHaveLength(14);
    expect(days.rows.find((d) => d.day === '2045-03-12')).toMatchObject({ capacityMinutes: 360, bookedMinutes: 60, idleGaps: 2, idleGapMinutes: 300 });
    expect(days.rows.find((d) => d.day === '2045-03-19')).toMatchObject({ capacityMinutes: 480, bookedMinutes: 0 });
  });

  it('staff activity: visits by completion, notes by their recorded moves and who made them', async () => {
    const r = await report('staff-activity');
    const byRole = Object.fromEntries(r.rows.map(({ person, ...rest }) => [String(person).match(/\((\w+)\)$/)![1], rest]));
    expect(byRole).toEqual({
      admin: { visitsAsNurse: 0, visitsAsScribe: 0, notesWritten: 0, notesReviewed: 0, notesFinalized: 1 },
      scheduler: { visitsAsNurse: 0, visitsAsScribe: 0, notesWritten: 0, notesReviewed: 0, notesFinalized: 1 },
      // A1, A5 (completed 00:30 on 03-13), A8; three notes drafted.
      nurse: { visitsAsNurse: 3, visitsAsScribe: 0, notesWritten: 3, notesReviewed: 0, notesFinalized: 0 },
      // A1, A8, A10; note 1 once, note 2 twice.
      scribe: { visitsAsNurse: 0, visitsAsScribe: 3, notesWritten: 0, notesReviewed: 3, notesFinalized: 0 },
    });
    const one = await report('staff-activity', `&providerId=${scribe.user.id}`);
    expect(one.rows).toHaveLength(1);
    expect(metricsOf(one)).toEqual({ visitsAsNurse: 0, visitsAsScribe: 3, notesWritten: 0, notesReviewed: 3, notesFinalized: 0 });
  });

  it('note turnaround: each stage from the first recorded move, median and 90th percentile', async () => {
    const r = await report('note-turnaround');
    expect(table(r)).toEqual([
      // Note 1: 8 h after A5 ended; notes 2 and 3 drafted during their visits: 0. p90 of [0, 0, 8] = 6.4.
      { stage: 'Visit end to first draft', notes: 3, medianHours: 0, p90Hours: 6.4 },
      { stage: 'First draft to submitted', notes: 3, medianHours: 2, p90Hours: 2 },
      // Note 2's first submission (10:15) to its first review (12:15): 2 h; note 1: 4 h.
      { stage: 'Submitted to reviewed', notes: 2, medianHours: 3, p90Hours: 3.8 },
      // Note 1: 19 h; note 2 from its first review: 22 h.
      { stage: 'Reviewed to finalized', notes: 2, medianHours: 20.5, p90Hours: 21.7 },
      // Note 1: 00:30 on 03-13 to 09:30 on 03-14 = 33 h; note 2: 09:30 to 10:15 next day = 24.75 h.
      { stage: 'Visit end to finalized', notes: 2, medianHours: 28.9, p90Hours: 32.2 },
    ]);
    expect(metricsOf(r)).toEqual({ medianHours: 28.9, finalized: 2, amendments: 1, amendmentsPer100: 50 });
  });

  it('lab turnaround by priority, with what is overdue and unreviewed now', async () => {
    const r = await report('lab-turnaround');
    expect(table(r)).toEqual([
      {
        priority: 'STAT',
        received: 1,
        receivedMedianHours: 1,
        receivedP90Hours: 1,
        reviewed: 1,
        reviewedMedianHours: 0.5,
        reviewedP90Hours: 0.5,
        overdue: 0,
        unreviewedOld: 0,
      },
      {
        priority: 'Urgent',
        received: 0,
        receivedMedianHours: null,
        receivedP90Hours: null,
        reviewed: 0,
        reviewedMedianHours: null,
        reviewedP90Hours: null,
        overdue: 1,
        unreviewedOld: 0,
      },
      // 24 h and 12 h in; the first review 4 h after (the re-review after a correction on 03-15 does not count).
      {
        priority: 'Routine',
        received: 2,
        receivedMedianHours: 18,
        receivedP90Hours: 22.8,
        reviewed: 1,
        reviewedMedianHours: 4,
        reviewedP90Hours: 4,
        overdue: 0,
        unreviewedOld: 1,
      },
    ]);
    expect(metricsOf(r)).toEqual({ overdue: 1, unreviewedOld: 1, received: 3, reviewed: 2 });
  });

  it('supply: ready and pickup times, short lines, and stock at its reorder point', async () => {
    const r = await report('supply');
    expect(table(r)).toEqual([
      { supplier: expect.any(String), ordered: 3, readyMedianHours: 18, readyP90Hours: 22.8, pickedUp: 1, pickupMedianHours: 6, linesShort: 1, cancelled: 1 },
    ]);
    expect(metricsOf(r)).toEqual({ ordered: 3, pickedUp: 1, linesShort: 1, lowStock: 1 });
  });
});

describe('one table, three renderings', () => {
  /** RFC 4180 as the server writes it: quoted fields may hold commas and doubled quotes. */
  const csvRows = (text: string) =>
    text
      .trim()
      .split('\r\n')
      .map((line) => [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!)));

  it.each(REPORT_IDS)('%s: the CSV and the PDF carry the JSON figures', async (id) => {
    const json = await report(id);
    const csv = await admin.get(`/api/reports/${id}/export.csv?${RANGE}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = csvRows(csv.body);
    expect(header).toEqual(json.columns.map((c) => c.label));
    expect(rows).toEqual(json.rows.map((row) => json.columns.map((c) => (row[c.key] === null ? '' : String(row[c.key])))));

    const pdf = await admin.get(`/api/reports/${id}/export.pdf?${RANGE}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(json.description);
    for (const m of json.metrics) expect(flat).toContain(`${m.label}: ${formatReportValue(m.value, m.kind)}`);
    for (const c of json.columns.filter((col) => col.definition)) expect(flat).toContain(`${c.label}: ${c.definition}`);
    for (const caveat of json.caveats) expect(flat).toContain(caveat);
    for (const row of json.rows) {
      const cells = json.columns.map((c) => formatReportValue(row[c.key] ?? null, c.kind));
      expect(flat).toContain(cells.join(' '));
    }
  });
});

describe('the PDF of a filtered report', () => {
  it('names the provider and the appointment type it was filtered by', async () => {
    const pdf = await admin.get(`/api/reports/no-shows/export.pdf?${RANGE}&providerId=${scheduler.user.id}&appointmentType=follow_up`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    const name = `${scheduler.user.firstName ?? ''} ${scheduler.user.lastName ?? ''}`.trim() || scheduler.user.email;
    expect(text.replace(/\s+/g, ' ')).toContain(`Provider: ${name}. Appointment type: Follow-up.`);
  });
});

describe('the records behind the figures', () => {
  it('no-shows: one line per appointment counted, in start order, none outside the range, no patient named', async () => {
    const res = await admin.get(`/api/reports/no-shows/records.csv?${RANGE}&groupBy=type`);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('Clinic day,Week of,Start,Minutes,Provider,Appointment type,Room,Status,Hours of notice,Late cancellation');
    expect(lines).toHaveLength(11);
    // A5, the 23:30 visit of the short Sunday, is on its clinic day and in its week.
    expect(lines).toContainEqual(expect.stringMatching(/^2045-03-12,2045-03-06,23:30,60,.*,urgent_care,,completed,,$/));
    expect(lines).toContainEqual(expect.stringMatching(/^2045-03-07,2045-03-06,09:00,30,.*,consultation,2,cancelled,13,true$/));
    const patients = await t.db.select().from(appointments);
    for (const a of patients) expect(res.body).not.toContain(a.patientId);
  });

  it('a report with no records says so', async () => {
    const res = await admin.get(`/api/reports/supply/records.csv?${RANGE}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('who may read reports', () => {
  const routes = REPORT_IDS.flatMap((id) => [
    `/api/reports/${id}`,
    `/api/reports/${id}/export.csv`,
    `/api/reports/${id}/export.pdf`,
    `/api/reports/${id}/records.csv`,
  ]);

  it('admins and schedulers read every report; nurses, scribes and suppliers are refused on every route, visitors asked to sign in', async () => {
    for (const url of routes) {
      if (!url.endsWith('records.csv') || url.includes('no-shows')) expect((await scheduler.get(`${url}?${RANGE}`)).statusCode, url).toBe(200);
      for (const client of [nurse, scribe, supplier]) expect((await client.get(`${url}?${RANGE}`)).statusCode, `${url} as ${client.user.role}`).toBe(403);
      expect((await anonymous(t).get(`${url}?${RANGE}`)).statusCode, url).toBe(401);
    }
  });
});

describe('bad queries', () => {
  it.each([
    ['to before from', 'from=2045-03-10&to=2045-03-09', 'to'],
    ['over the longest range', 'from=2044-01-01&to=2045-03-09', 'to'],
    ['not a date', 'from=2045-02-30&to=2045-03-09', 'from'],
    ['a filter the report does not take', `from=2045-03-06&to=2045-03-09&appointmentType=consultation`, 'appointmentType'],
    ['a grouping it does not offer', 'from=2045-03-06&to=2045-03-09&groupBy=priority', 'groupBy'],
    ['an unknown field', 'from=2045-03-06&to=2045-03-09&patientId=x', ''],
  ])('%s is a 400 naming the field', async (_name, query, field) => {
    const res = await admin.get(`/api/reports/schedule-use?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    if (field) expect(JSON.stringify(res.json())).toContain(field);
  });

  it('an unknown report is a 400', async () => {
    expect((await admin.get(`/api/reports/revenue?${RANGE}`)).statusCode).toBe(400);
  });
});

describe('measured from recorded moves', () => {
  it("each note's milestones, kept by the database, are its revisions' first moves and the visit it is about", async () => {
    const rows = await t.db.execute(
      `select m.note_id, m.drafted_at = r.drafted and m.submitted_at is not distinct from r.submitted
         and m.reviewed_at is not distinct from r.reviewed and m.finalized_at is not distinct from r.finalized as same,
         m.visit_ended_at is not null as "hasVisit"
       from note_milestones m join (
         select note_id, min(at) filter (where action = 'created') as drafted,
           min(at) filter (where action = 'moved' and to_status = 'submitted_to_scribe') as submitted,
           min(at) filter (where action = 'moved' and to_status = 'reviewed_by_scribe') as reviewed,
           min(at) filter (where action = 'moved' and to_status = 'finalized') as finalized
         from note_revisions group by note_id) r on r.note_id = m.note_id` as never,
    );
    const found = (rows as unknown as { rows: { same: boolean; hasVisit: boolean }[] }).rows;
    expect(found).toHaveLength(3);
    expect(found.every((r) => r.same)).toBe(true);
    expect(found.every((r) => r.hasVisit)).toBe(true);
  });

  it('an amendment of a finalized note and an edit of a cancelled appointment leave the clocks where they were', async () => {
    // The range takes in today (03-20), when the amendment is made: it counts as one, and moves nothing else.
    const wide = (id: TReportId) => admin.get(`/api/reports/${id}?from=2045-03-06&to=2045-03-20`).then((res) => ZReport.parse(res.json()));
    const before = await wide('note-turnaround');
    const noShows = await wide('no-shows');
    const [finalized] = await t.db.select().from(patientNotes).where(eq(patientNotes.status, 'finalized')).limit(1);
    t.clock.advance(HOUR);
    const amended = await admin.put(`/api/notes/${finalized!.id}`, { content: 'Seen. Addendum: allergies checked.', amendmentReason: 'Addendum after review' });
    expect(amended.statusCode, amended.body).toBe(200);
    const [cancelled] = await t.db.select().from(appointments).where(eq(appointments.status, 'cancelled')).limit(1);
    await t.db.update(appointments).set({ updatedAt: t.clock.now(), notes: 'Called back' }).where(eq(appointments.id, cancelled!.id));

    const after = await wide('note-turnaround');
    expect(after.rows).toEqual(before.rows);
    expect(metricsOf(after)).toEqual({ ...metricsOf(before), amendments: 2, amendmentsPer100: 100 });
    expect((await wide('no-shows')).rows).toEqual(noShows.rows);
  });
});

/** PostgreSQL only: the embedded engine runs one statement at a time in-process and cannot stop one. */
describe.runIf(process.env.TEST_DATABASE_URL)('a report that cannot finish (PostgreSQL)', () => {
  let slow: TestApp;
  let manager: SignedIn;
  beforeAll(async () => {
    slow = await buildTestApp({ REPORT_TIMEOUT_MS: '300' });
    manager = await signInAs(slow, 'scheduler');
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('is stopped at the timeout and answered 503 with Retry-After, and the next one is answered', async () => {
    await slow.db.transaction(async (tx) => {
      await tx.execute(sql`lock table appointments in access exclusive mode`);
      const res = await manager.get(`/api/reports/no-shows?${RANGE}`);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json()).toMatchObject({ code: 'report.timeout' });
    });
    expect((await manager.get(`/api/reports/no-shows?${RANGE}`)).statusCode).toBe(200);
  });
});
