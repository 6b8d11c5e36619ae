import { eq, sql } from 'drizzle-orm';
import { APPOINTMENT_TYPES } from '#domain/appointments';
import { addDays, startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { Db } from '../db/database.ts';
import { users } from '../db/schema/auth.ts';
import { appointments, labOrders, noteRevisions, patientNotes, patients } from '../db/schema/clinical.ts';
import { chatMessages, chatRoomMembers, notifications, patientChatRooms } from '../db/schema/collaboration.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../modules/auth/demo-accounts.ts';

// Any fixed number serves: it only has to be the same in every app instance.
const SEED_LOCK = 727_001;

const PATIENTS = [
  ['Olivia', 'Hart', '1984-03-12', 'Blue Cross', 'Penicillin'],
  ['Liam', 'Chen', '1990-07-24', 'Aetna', null],
  ['Emma', 'Novak', '1977-11-02', 'Cigna', 'Latex'],
  ['Noah', 'Garcia', '2001-01-19', null, null],
  ['Ava', 'Okafor', '1965-05-30', 'Medicare', 'Sulfa drugs'],
  ['Ethan', 'Schmidt', '1995-09-08', 'United Health', null],
  ['Mia', 'Rossi', '1988-12-14', 'Kaiser', 'Peanuts'],
  ['Lucas', 'Dubois', '1972-04-03', 'Humana', null],
  ['Sophia', 'Kowalski', '1999-06-21', 'Blue Cross', null],
  ['Mason', 'Haddad', '1958-10-10', 'Medicare', 'Aspirin'],
  ['Isabella', 'Lindqvist', '1981-02-27', null, null],
  ['Logan', 'Mensah', '2010-08-15', 'Medicaid', null],
  ['Amelia', 'Tanaka', '1993-03-05', 'Aetna', 'Shellfish'],
  ['James', "O'Brien", '1969-12-01', 'Cigna', null],
  ['Harper', 'Silva', '1986-07-17', 'United Health', null],
  ['Benjamin', 'Ivanova', '1979-09-29', null, 'Codeine'],
] as const;

/**
 * Seeds the demo clinic on an empty database. Safe to run on every start and from several
 * instances at once: an advisory lock serialises them and an existing demo admin means done.
 */
export async function seedDemoClinic(db: Db, timeZone: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USERS[0]!.email));
    if (existing) return false;

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const staff = await tx
      .insert(users)
      .values(DEMO_USERS.map((u) => ({ ...u, passwordHash })))
      .returning();
    const byEmail = (email: string) => staff.find((u) => u.email === email)!;
    const admin = byEmail('admin@demo.clinic');
    const scheduler = byEmail('scheduler@demo.clinic');
    const nurse = byEmail('nurse@demo.clinic');
    const nurse2 = byEmail('nurse2@demo.clinic');
    const scribe = byEmail('scribe@demo.clinic');

    const people = await tx
      .insert(patients)
      .values(
        PATIENTS.map(([firstName, lastName, dateOfBirth, insuranceProvider, allergies], i) => ({
          firstName,
          lastName,
          dateOfBirth,
          email: `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com',
          phone: i % 5 === 3 ? null : `(555) 01${String(i).padStart(2, '0')}-${1000 + i * 37}`,
          address: `${100 + i * 7} Maple Street, Springfield`,
          emergencyContact: i % 4 === 0 ? null : `Family contact of ${firstName}`,
          emergencyPhone: i % 4 === 0 ? null : `(555) 02${String(i).padStart(2, '0')}-${2000 + i}`,
          insuranceProvider,
          insuranceNumber: insuranceProvider ? `INS-${100_000 + i * 7919}` : null,
          allergies,
          medicalHistory: i % 3 === 0 ? 'Hypertension, controlled' : null,
          currentMedications: i % 3 === 0 ? 'Lisinopril 10 mg daily' : null,
        })),
      )
      .returning();

    const today = zonedDate(now, timeZone);
    const at = (day: string, hour: number, minute = 0) => new Date(startOfZonedDay(day, timeZone).getTime() + (hour * 60 + minute) * 60_000);
    const visit = (i: number, day: string, hour: number, minute: number, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
      patientId: people[i]!.id,
      providerId: scheduler.id,
      appointmentDate: at(day, hour, minute),
      duration: 30,
      appointmentType: APPOINTMENT_TYPES[i % APPOINTMENT_TYPES.length],
      roomNumber: i % 4 === 2 ? null : String(100 + i),
      reason: 'Routine visit',
      assignedNurseId: i % 2 === 0 ? nurse.id : nurse2.id,
      assignedScribeId: scribe.id,
      ...extra,
    });
    await tx
      .insert(appointments)
      .values([
        visit(0, today, 8, 30, { status: 'completed', checkedInAt: at(today, 8, 20), completedAt: at(today, 9, 0) }),
        visit(1, today, 9, 30, { status: 'checked_in', checkedInAt: at(today, 9, 25) }),
        visit(2, today, 10, 30, { status: 'in_progress', checkedInAt: at(today, 10, 20) }),
        visit(3, today, 13, 0),
        visit(4, today, 14, 30),
        visit(5, today, 16, 0, { assignedScribeId: null }),
        ...[1, 2, 3, 5, 8, 9, 12].flatMap((offset, k) => [
          visit((k + 6) % people.length, addDays(today, offset), 9 + (k % 6), 0),
          ...(k % 2 === 0 ? [visit((k + 9) % people.length, addDays(today, offset), 11, 30)] : []),
        ]),
        visit(7, addDays(today, -2), 10, 0, { status: 'completed', completedAt: at(addDays(today, -2), 10, 40) }),
        visit(8, addDays(today, -1), 15, 0, { status: 'no_show' }),
      ]);

    const noteAt = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000);
    const notes = await tx
      .insert(patientNotes)
      .values([
        {
          patientId: people[0]!.id,
          authorId: nurse.id,
          noteType: 'Nurse Assessment',
          status: 'draft',
          content: 'Vitals stable. BP 128/82, HR 72. Patient reports mild headache since yesterday.',
        },
        {
          patientId: people[1]!.id,
          authorId: nurse.id,
          noteType: 'Progress Note',
          status: 'submitted_to_scribe',
          content: 'Follow-up on medication change; tolerating well, no side effects reported.',
        },
        {
          patientId: people[2]!.id,
          authorId: nurse2.id,
          noteType: 'Procedure Note',
          status: 'reviewed_by_scribe',
          scribeId: scribe.id,
          reviewedAt: noteAt(3),
          content: 'Wound dressing changed; site clean, no signs of infection.',
        },
        {
          patientId: people[3]!.id,
          authorId: nurse.id,
          noteType: 'Treatment Plan',
          status: 'finalized',
          scribeId: scribe.id,
          reviewedAt: noteAt(30),
          finalizedAt: noteAt(26),
          content: 'Continue physiotherapy twice weekly for four weeks.',
        },
        {
          patientId: people[4]!.id,
          authorId: nurse2.id,
          noteType: 'Medication Review',
          status: 'submitted_to_admin',
          scribeId: scribe.id,
          reviewedAt: noteAt(50),
          finalizedAt: noteAt(48),
          submittedToAdminAt: noteAt(47),
          content: 'Reviewed all current medications; no interactions found.',
        },
      ])
      .returning();
    // Every note's history starts with its creation (docs/decisions/notes.md); the demo's
    // later steps are not replayed.
    await tx
      .insert(noteRevisions)
      .values(
        notes.map((note) => ({
          noteId: note.id,
          at: note.createdAt,
          actorId: note.authorId,
          action: 'created' as const,
          toStatus: 'draft' as const,
          noteTypeAfter: note.noteType,
          contentAfter: note.content,
          attachmentsAfter: note.attachments,
        })),
      );

    await tx.insert(labOrders).values([
      { patientId: people[0]!.id, providerId: nurse.id, orderName: 'Complete blood count', status: 'ordered', isUrgent: true },
      { patientId: people[2]!.id, providerId: nurse2.id, orderName: 'Lipid panel', status: 'pending' },
      { patientId: people[5]!.id, providerId: nurse.id, orderName: 'HbA1c', status: 'received', receivedAt: noteAt(5), results: '5.6 %' },
    ]);

    const rooms = await tx
      .insert(patientChatRooms)
      .values([
        {
          patientId: people[1]!.id,
          name: `${people[1]!.firstName} ${people[1]!.lastName} - Cardiology`,
          description: 'Care team for the medication change',
          createdById: scheduler.id,
          lastActivityAt: noteAt(1),
        },
        {
          patientId: people[2]!.id,
          name: `${people[2]!.firstName} ${people[2]!.lastName} - Wound care`,
          description: 'Dressing changes and follow-up',
          createdById: admin.id,
          lastActivityAt: noteAt(4),
        },
      ])
      .returning();
    const joined = noteAt(72);
    await tx
      .insert(chatRoomMembers)
      .values([
        ...[scheduler, nurse, scribe, admin].map((u) => ({ chatRoomId: rooms[0]!.id, userId: u.id, addedById: scheduler.id, joinedAt: joined })),
        ...[admin, nurse2, scribe].map((u) => ({ chatRoomId: rooms[1]!.id, userId: u.id, addedById: admin.id, joinedAt: joined })),
      ]);
    await tx.insert(chatMessages).values([
      { chatRoomId: rooms[0]!.id, senderId: scheduler.id, content: 'Follow-up booked for next week; please review the new dosage.', createdAt: noteAt(3) },
      {
        chatRoomId: rooms[0]!.id,
        senderId: nurse.id,
        content: 'Vitals look good today. Note submitted for review.',
        messageType: 'note_update' as const,
        createdAt: noteAt(2),
      },
      { chatRoomId: rooms[0]!.id, senderId: scribe.id, content: 'Thanks, I will review it this afternoon.', createdAt: noteAt(1) },
      { chatRoomId: rooms[1]!.id, senderId: nurse2.id, content: 'Dressing changed, site is clean.', createdAt: noteAt(4) },
    ]);

    await tx.insert(notifications).values([
      { userId: nurse.id, type: 'notes_pending', title: 'Notes pending', message: 'Please provide notes for your completed visit.' },
      { userId: nurse.id, type: 'chat_assignment', title: 'Added to a care team', message: 'You were added to a patient chat room.' },
      { userId: scribe.id, type: 'notes_received', title: 'Note ready for review', message: 'A progress note was submitted for review.' },
      { userId: admin.id, type: 'lab_received', title: 'Lab results received', message: 'HbA1c results are available.' },
      { userId: scheduler.id, type: 'visitation_expired', title: 'Missed appointment', message: 'A patient did not attend yesterday.' },
      { userId: byEmail('supplier@demo.clinic').id, type: 'supply_ready', title: 'Supply order ready', message: 'Order SO-1001 is ready for pickup.' },
    ]);
    return true;
  });
}
