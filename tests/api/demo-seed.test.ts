import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { Database } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/auth.ts';
import { SUPPLY_ORDER_STATUSES } from '#domain/orders';
import { queryRows } from '../../server/db/database.ts';
import { appointments, labOrders, noteRevisions, patientNotes, patients, supplyOrders } from '../../server/db/schema/clinical.ts';
import { supplyItems, supplyMovements, supplySuggestions } from '../../server/db/schema/supplies.ts';
import { chatMessages, chatRoomMembers, notifications, patientChatRooms } from '../../server/db/schema/collaboration.ts';
import { seedDemoClinic } from '../../server/seed/demo-clinic.ts';
import { chartRevisions, patientAllergies, patientMedications, patientProblems } from '../../server/db/schema/chart.ts';
import { prescriptionRevisions, prescriptions } from '../../server/db/schema/prescriptions.ts';
import { freshDatabase } from '../helpers/test-database.ts';

// Issue 29: seeded before 8 am, the demo said today's first visits were completed, hours before
// they began; its notes were reviewed before they were written. The seed now places everything
// from the clock it is given (config.now() at start-up), so it is seeded here at several moments
// of one clinic day, in the clinic's zone, on a database of its own each time.

const TIME_ZONE = 'America/New_York';
const DAY = '2026-03-10';
const clinicTime = (day: string, hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return new Date(startOfZonedDay(day, TIME_ZONE).getTime() + (h! * 60 + m!) * 60_000);
};

let database: Database | null = null;
afterEach(async () => {
  await database?.close();
  database = null;
});

async function seededAt(now: Date) {
  database = await freshDatabase();
  expect(await seedDemoClinic(database.db, TIME_ZONE, now)).toBe(true);
  return database.db;
}

const ms = (d: Date | null | undefined) => (d ? new Date(d).getTime() : null);
/** Each of the times present is at or after the one before it. */
function inOrder(label: string, times: (Date | null | undefined)[]) {
  const present = times.map(ms).filter((t): t is number => t !== null);
  expect(present, label).toEqual([...present].sort((a, b) => a - b));
}

// Today's six visits are booked at 8:30, 9:30, 10:30, 13:00, 14:30 and 16:00; the demo clinic
// checks a patient in 5 minutes early, runs 20 minutes behind and sees her for 30 minutes.
const TODAY_AT: Record<string, string[]> = {
  '06:00': ['scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled'],
  '09:45': ['completed', 'checked_in', 'scheduled', 'scheduled', 'scheduled', 'scheduled'],
  '10:05': ['completed', 'in_progress', 'scheduled', 'scheduled', 'scheduled', 'scheduled'],
  '12:00': ['completed', 'completed', 'completed', 'scheduled', 'scheduled', 'scheduled'],
  '23:30': ['completed', 'completed', 'completed', 'completed', 'completed', 'completed'],
};

describe('the demo clinic seeded at different times of the clinic day', () => {
  for (const [hhmm, expected] of Object.entries(TODAY_AT)) {
    it(`at ${hhmm}: today's statuses follow the clock, and every time seeded is in order and not after now`, async () => {
      const now = clinicTime(DAY, hhmm);
      const db = await seededAt(now);
      const notAfterNow = (label: string, t: Date | null | undefined) => {
        if (t) expect(ms(t), `${label} after now`).toBeLessThanOrEqual(now.getTime());
      };

      // Appointments: today's where the clock puts them; none under way or done before its time.
      const visits = await db.select().from(appointments).orderBy(asc(appointments.appointmentDate));
      const today = visits.filter((v) => zonedDate(v.appointmentDate, TIME_ZONE) === DAY);
      expect(today.map((v) => v.status)).toEqual(expected);
      const opened = (await db.select({ createdAt: patients.createdAt }).from(patients))[0]!.createdAt;
      for (const v of visits) {
        const label = `${v.status} visit at ${v.appointmentDate.toISOString()}`;
        if (v.status === 'scheduled') expect(ms(v.appointmentDate), label).toBeGreaterThan(now.getTime());
        if (['checked_in', 'in_progress', 'completed'].includes(v.status)) {
          notAfterNow(label, v.appointmentDate);
          expect(v.checkedInAt, label).not.toBeNull();
        }
        expect(v.completedAt === null, label).toBe(v.status !== 'completed');
        if (v.completedAt) expect(ms(v.completedAt)! - ms(v.appointmentDate)!, label).toBeGreaterThanOrEqual(v.duration * 60_000);
        inOrder(label, [opened, v.createdAt, v.checkedInAt, v.completedAt, v.updatedAt]);
        inOrder(label, [opened, v.createdAt, v.cancelledAt, v.updatedAt]);
        expect(v.cancelledAt === null, label).toBe(v.status !== 'cancelled');
        for (const t of [v.createdAt, v.updatedAt, v.checkedInAt, v.completedAt, v.cancelledAt]) notAfterNow(label, t);
      }
      // Yesterday's visit was missed, two days ago's done; the later days' are ahead. Before
      // them, four weeks of history (issue 34): mostly done, some missed, some cancelled, some late.
      const past = visits.filter((v) => v.appointmentDate < startOfZonedDay(DAY, TIME_ZONE));
      expect(past.slice(-2).map((v) => v.status)).toEqual(['completed', 'no_show']);
      const history = past.slice(0, -2);
      expect(history.length).toBeGreaterThan(80);
      expect(new Set(history.map((v) => v.status))).toEqual(new Set(['completed', 'no_show', 'cancelled']));
      const notice = history.filter((v) => v.cancelledAt).map((v) => ms(v.appointmentDate)! - ms(v.cancelledAt)!);
      expect(notice.some((n) => n < 24 * 3_600_000) && notice.some((n) => n >= 24 * 3_600_000)).toBe(true);
      expect(visits.filter((v) => v.appointmentDate >= startOfZonedDay(addDays(DAY, 1), TIME_ZONE)).every((v) => v.status === 'scheduled')).toBe(true);

      // Notes: written, submitted, reviewed, finalized, submitted to admin, in that order, and
      // each history is its creation and then its moves, in order, ending at the note's status.
      const notes = await db.select().from(patientNotes);
      expect(notes.map((n) => n.status).sort()).toEqual(['draft', 'finalized', 'reviewed_by_scribe', 'submitted_to_admin', 'submitted_to_scribe']);
      for (const note of notes) {
        const history = await db.select().from(noteRevisions).where(eq(noteRevisions.noteId, note.id)).orderBy(asc(noteRevisions.at));
        expect(history[0], note.status).toMatchObject({ action: 'created', toStatus: 'draft', at: note.createdAt });
        history.slice(1).forEach((move, i) => {
          expect(move.action, note.status).toBe('moved');
          expect(move.fromStatus, note.status).toBe(history[i]!.toStatus);
        });
        expect(history.at(-1)!.toStatus).toBe(note.status);
        const submitted = history.find((r) => r.toStatus === 'submitted_to_scribe')?.at;
        inOrder(`${note.status} note`, [opened, note.createdAt, submitted, note.reviewedAt, note.finalizedAt, note.submittedToAdminAt, note.updatedAt]);
        inOrder(
          `${note.status} history`,
          history.map((r) => r.at),
        );
        for (const t of [note.createdAt, note.updatedAt, note.reviewedAt, note.finalizedAt, note.submittedToAdminAt, ...history.map((r) => r.at)]) {
          notAfterNow(`${note.status} note`, t);
        }
        expect(history.find((r) => r.toStatus === 'reviewed_by_scribe')?.at ?? null).toEqual(note.reviewedAt);
        expect(history.find((r) => r.toStatus === 'finalized')?.at ?? null).toEqual(note.finalizedAt);
      }

      // Everything else: accounts and patients first, then lab orders, rooms, their members and
      // messages, and the notifications, none after now.
      for (const u of await db.select().from(users)) inOrder(u.email, [u.createdAt, u.updatedAt, now]);
      for (const p of await db.select().from(patients)) inOrder('patient', [p.createdAt, p.updatedAt, now]);
      for (const o of await db.select().from(labOrders)) inOrder(o.orderName, [opened, o.orderedAt, o.createdAt, o.receivedAt, o.updatedAt, now]);
      // Supplies: every status of an order, its stamps in order; the ledger before now and on hand its sum.
      const orders = await db.select().from(supplyOrders);
      expect(new Set(orders.map((o) => o.status))).toEqual(new Set(SUPPLY_ORDER_STATUSES));
      for (const o of orders) inOrder(o.orderNumber, [opened, o.orderedAt, o.processingAt, o.readyAt, o.pickedUpAt, now]);
      for (const m of await db.select().from(supplyMovements)) inOrder(`${m.kind} movement`, [opened, m.at, now]);
      const items = await db.select().from(supplyItems);
      for (const item of items) {
        const [ledger] = await queryRows<{ sum: number }>(
          db,
          sql`select coalesce(sum(quantity), 0)::int as sum from supply_movements where item_id = ${item.id}::uuid`,
        );
        expect(item.onHand, item.name).toBe(ledger!.sum);
      }
      expect(items.some((i) => i.onHand <= i.reorderPoint)).toBe(true);
      expect((await db.select().from(supplySuggestions)).length).toBeGreaterThan(0);
      // The clinic's next order number is not one the seed took (it once was: a 500 on the first order).
      const [next] = await queryRows<{ n: string }>(db, sql`select nextval('supply_order_number_seq')::text as n`);
      expect(orders.map((o) => Number(o.orderNumber.split('-')[2]))).not.toContain(Number(next!.n));
      const rooms = await db.select().from(patientChatRooms);
      for (const room of rooms) {
        const members = await db.select().from(chatRoomMembers).where(eq(chatRoomMembers.chatRoomId, room.id));
        const messages = await db.select().from(chatMessages).where(eq(chatMessages.chatRoomId, room.id)).orderBy(asc(chatMessages.createdAt));
        for (const m of members) inOrder(room.name, [opened, room.createdAt, m.joinedAt, ...messages.map((x) => x.createdAt), now]);
        expect(room.lastActivityAt, room.name).toEqual(messages.at(-1)!.createdAt);
        inOrder(room.name, [room.createdAt, room.updatedAt, now]);
      }
      for (const n of await db.select().from(notifications)) inOrder(n.title, [opened, n.createdAt, now]);
      // The chart (issue 51): the banner's three states side by side, a high-criticality entry and a draft to confirm.
      const people = await db.select().from(patients);
      const allergies = await db.select().from(patientAllergies);
      const listed = new Set(allergies.filter((a) => a.status === 'active').map((a) => a.patientId));
      expect(new Set(people.map((p) => (listed.has(p.id) ? 'listed' : (p.allergyStatement ?? 'unknown'))))).toEqual(
        new Set(['listed', 'nka', 'nkda', 'unknown']),
      );
      expect([allergies.some((a) => a.criticality === 'high'), allergies.some((a) => a.state === 'draft')]).toEqual([true, true]);
      for (const a of allergies) inOrder(a.substanceName, [opened, a.recordedAt, a.confirmedAt, now]);
      for (const r of await db.select().from(chartRevisions)) inOrder('chart revision', [opened, r.at, now]);
      // Problems coded in ICD-10-CM and medications from the formulary, one of each past.
      const [problems, medications] = [await db.select().from(patientProblems), await db.select().from(patientMedications)];
      expect([problems.every((p) => p.code), problems.some((p) => p.clinicalStatus === 'resolved')]).toEqual([true, true]);
      expect([medications.every((m) => m.formularyId), medications.some((m) => m.status === 'stopped' && m.stop)]).toEqual([true, true]);
      // Prescriptions (issue 52): every state but the rare ones, each signed one on her list, a
      // renewal that completed what it renews, and no high alert signed over without its reason.
      const rxs = await db.select().from(prescriptions);
      expect(new Set(rxs.map((r) => r.status))).toEqual(new Set(['draft', 'signed', 'active', 'completed', 'discontinued']));
      for (const r of rxs) {
        inOrder(r.medicationName, [opened, r.createdAt, r.signedAt, r.sentAt, r.endedAt, r.updatedAt, now]);
        expect(r.medicationEntryId === null, r.medicationName).toBe(r.status === 'draft');
        if (r.signedAt)
          expect(
            r.alerts.filter((a) => a.severity === 'high' && !a.override),
            r.medicationName,
          ).toEqual([]);
      }
      expect(rxs.some((r) => r.signedAt && r.alerts.some((a) => a.check === 'allergy' && a.override))).toBe(true);
      const renewal = rxs.find((r) => r.replaceKind === 'renewal')!;
      expect(rxs.find((r) => r.id === renewal.replacesId)).toMatchObject({ status: 'completed', statusReason: expect.stringContaining('Renewed by RX-') });
      for (const h of await db.select().from(prescriptionRevisions)) inOrder('prescription revision', [opened, h.at, now]);
    });
  }
});
