import { eq, sql } from 'drizzle-orm';
import { APPOINTMENT_TYPES, type TAppointmentStatus } from '#domain/appointments';
import { addDays, startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { TNoteStatus } from '#domain/notes';
import { everyRoleOptional } from '#domain/second-factor';
import type { Db, Tx } from '../db/database.ts';
import { clinicSettings, users } from '../db/schema/auth.ts';
import { appointments, noteRevisions, patientNotes, patients } from '../db/schema/clinical.ts';
import { apiClients } from '../db/schema/api-clients.ts';
import { patientGroupMembers, patientGroups } from '../db/schema/bulk-export.ts';
import { chatMessages, chatRoomMembers, notifications, patientChatRooms } from '../db/schema/collaboration.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../modules/auth/demo-accounts.ts';
import { newSecret } from '../sessions/api-token.ts';
import { seedDemoChart, seedDemoProblemsAndMedications, seedDemoVitals } from './demo-chart.ts';
import { DEMO_ROOMS, seedDemoHistory } from './demo-history.ts';
import { seedDemoLabs } from './demo-labs.ts';
import { seedDemoPrescriptions } from './demo-prescriptions.ts';
import { staffName } from '#domain/auth';
import { seedDemoSupplies } from './demo-supplies.ts';

// Any fixed number serves: it only has to be the same in every app instance.
const SEED_LOCK = 727_001;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How long before the seed the clinic's staff and patients were entered. */
const CLINIC_AGE_MS = 30 * 24 * HOUR;
/** How long before the seed its appointments were booked (the latest is 12 days ahead). */
const BOOKED_AHEAD_MS = 14 * 24 * HOUR;
/** Patients check in this long before their booked time. */
const ARRIVES_EARLY_MS = 5 * MINUTE;
/** The demo clinic runs this far behind: a patient checked in waits this long past her time. */
const RUNNING_LATE_MS = 20 * MINUTE;

/**
 * Where a visit stands at `now`, from its booked time alone (issue 29: the demo once said a
 * visit was done before it began). Before its time it is scheduled. From its time the patient,
 * who checked in a few minutes early, waits while the clinic runs 20 minutes behind; then she is
 * seen for the visit's length; then it is completed. So no visit that is checked in, under way or
 * done starts after `now`, and every time it carries (checked in, completed) is at or before it.
 */
export function demoVisitProgress(
  start: Date,
  durationMinutes: number,
  now: Date,
): { status: TAppointmentStatus; checkedInAt: Date | null; completedAt: Date | null } {
  if (now < start) return { status: 'scheduled', checkedInAt: null, completedAt: null };
  const checkedInAt = new Date(start.getTime() - ARRIVES_EARLY_MS);
  const seenAt = start.getTime() + RUNNING_LATE_MS;
  if (now.getTime() < seenAt) return { status: 'checked_in', checkedInAt, completedAt: null };
  const doneAt = seenAt + durationMinutes * MINUTE;
  if (now.getTime() < doneAt) return { status: 'in_progress', checkedInAt, completedAt: null };
  return { status: 'completed', checkedInAt, completedAt: new Date(doneAt) };
}

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

type TStaff = typeof users.$inferSelect;
type TPatient = typeof patients.$inferSelect;
/** What every step of the seed shares: the transaction, the seed's clock and the clinic's zone. */
type TSeed = { tx: Tx; now: Date; timeZone: string; ago: (ms: number) => Date; opened: Date };
type TDemoStaff = Record<'admin' | 'scheduler' | 'nurse' | 'nurse2' | 'scribe' | 'supplier', TStaff>;

/**
 * Seeds the demo clinic on an empty database. Safe to run on every start and from several
 * instances at once: an advisory lock serialises them and an existing demo admin means done.
 * `now` is the app's clock (config.now()): today's visits, their statuses and every other time
 * written are placed from it, in the clinic's `timeZone`.
 */
export async function seedDemoClinic(db: Db, timeZone: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USERS[0]!.email));
    if (existing) return false;

    // Every time the seed writes is `now` or before it, in the order things happened (issue 29);
    // none is left to the database's clock, which a test seeding another moment does not move.
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const seed: TSeed = { tx, now, timeZone, ago, opened: ago(CLINIC_AGE_MS) };
    const staff = await seedStaff(seed);
    const { admin, scheduler, nurse, nurse2, scribe, supplier } = staff;
    const people = await seedPatients(seed);
    await seedAppointments(seed, staff, people);
    await seedDemoHistory(tx, { patients: people, scheduler: scheduler.id, nurse: nurse.id, nurse2: nurse2.id, scribe: scribe.id }, now, timeZone, seed.opened);
    await seedNotes(seed, staff, people);
    // Charted a fortnight ago, when the clinic turned its allergy texts into lists.
    const charted = ago(14 * 24 * 60 * 60 * 1000);
    await seedDemoChart(tx, { patients: people, nurse: nurse.id, scribe: scribe.id }, charted);
    await seedDemoProblemsAndMedications(tx, { patients: people, nurse: nurse.id }, charted);
    await seedDemoVitals(tx, { patients: people, nurse: nurse.id }, charted);
    await seedDemoLabs(tx, { patients: people, nurse: nurse.id, nurse2: nurse2.id, admin: admin.id }, now, timeZone, seed.opened);
    await seedDemoPrescriptions(
      tx,
      {
        patients: people,
        ...{ admin: admin.id, nurse: nurse.id, nurse2: nurse2.id, scribe: scribe.id },
        names: { admin: staffName(admin), nurse: staffName(nurse), nurse2: staffName(nurse2), scribe: staffName(scribe) },
      },
      now,
      timeZone,
      seed.opened,
    );
    await seedDemoSupplies(
      tx,
      { admin: admin.id, nurse: nurse.id, nurse2: nurse2.id, scheduler: scheduler.id, supplier: supplier.id },
      now,
      timeZone,
      seed.opened,
    );

    // The demo's accounts share a published password; a second factor is offered to every role
    // but required of none, so the demo keeps signing in by password however long it runs
    // (docs/decisions/second-factor.md). A clinic's own install requires it of admins.
    // Its rooms are listed, so Reports' schedule use has the clinic's capacity to measure against.
    await tx.update(clinicSettings).set({ secondFactorPolicy: everyRoleOptional(), rooms: DEMO_ROOMS }).where(eq(clinicSettings.id, true));
    await seedChat(seed, staff, people);
    await seedApiClients(seed, staff);
    await seedPatientGroups(seed, staff, people);
    await tx.insert(notifications).values([
      { userId: nurse.id, type: 'notes_pending', title: 'Notes pending', message: 'Please provide notes for your completed visit.', createdAt: now },
      { userId: nurse.id, type: 'chat_assignment', title: 'Added to a care team', message: 'You were added to a patient chat room.', createdAt: now },
      { userId: scribe.id, type: 'notes_received', title: 'Note ready for review', message: 'A progress note was submitted for review.', createdAt: now },
      { userId: scheduler.id, type: 'visitation_expired', title: 'Missed appointment', message: 'A patient did not attend yesterday.', createdAt: now },
    ]);
    return true;
  });
}

async function seedStaff({ tx, opened }: TSeed): Promise<TDemoStaff> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const staff = await tx
    .insert(users)
    .values(DEMO_USERS.map((u) => ({ ...u, passwordHash, createdAt: opened, updatedAt: opened })))
    .returning();
  const byEmail = (email: string) => staff.find((u) => u.email === email)!;
  return {
    admin: byEmail('admin@demo.clinic'),
    scheduler: byEmail('scheduler@demo.clinic'),
    nurse: byEmail('nurse@demo.clinic'),
    nurse2: byEmail('nurse2@demo.clinic'),
    scribe: byEmail('scribe@demo.clinic'),
    supplier: byEmail('supplier@demo.clinic'),
  };
}

function seedPatients({ tx, opened }: TSeed): Promise<TPatient[]> {
  return tx
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
        // The list alternates women and men; the lab catalogue's ranges differ by sex.
        sex: i % 2 === 0 ? ('female' as const) : ('male' as const),
        createdAt: opened,
        updatedAt: opened,
      })),
    )
    .returning();
}

async function seedAppointments({ tx, now, timeZone, ago }: TSeed, { scheduler, nurse, nurse2, scribe }: TDemoStaff, people: TPatient[]): Promise<void> {
  const today = zonedDate(now, timeZone);
  const at = (day: string, hour: number, minute = 0) => new Date(startOfZonedDay(day, timeZone).getTime() + (hour * 60 + minute) * 60_000);
  const booked = ago(BOOKED_AHEAD_MS);
  // Six visits today and more on the days around it, each where the clock of the seed puts it
  // (demoVisitProgress): at 6:00 today's are all ahead, at noon the morning's are done, at
  // 23:30 the whole day is.
  const visit = (i: number, day: string, hour: number, minute: number, extra: Partial<typeof appointments.$inferInsert> = {}) => {
    const appointmentDate = at(day, hour, minute);
    const progress = demoVisitProgress(appointmentDate, 30, now);
    return {
      patientId: people[i]!.id,
      providerId: scheduler.id,
      appointmentDate,
      duration: 30,
      appointmentType: APPOINTMENT_TYPES[i % APPOINTMENT_TYPES.length],
      roomNumber: i % 4 === 2 ? null : DEMO_ROOMS[i % DEMO_ROOMS.length],
      reason: 'Routine visit',
      assignedNurseId: i % 2 === 0 ? nurse.id : nurse2.id,
      assignedScribeId: scribe.id,
      ...progress,
      createdAt: booked,
      updatedAt: progress.completedAt ?? progress.checkedInAt ?? booked,
      ...extra,
    };
  };
  await tx.insert(appointments).values([
    visit(0, today, 8, 30),
    visit(1, today, 9, 30),
    visit(2, today, 10, 30),
    visit(3, today, 13, 0),
    visit(4, today, 14, 30),
    visit(5, today, 16, 0, { assignedScribeId: null }),
    ...[1, 2, 3, 5, 8, 9, 12].flatMap((offset, k) => [
      visit((k + 6) % people.length, addDays(today, offset), 9 + (k % 6), 0),
      ...(k % 2 === 0 ? [visit((k + 9) % people.length, addDays(today, offset), 11, 30)] : []),
    ]),
    visit(7, addDays(today, -2), 10, 0),
    // The patient never came: nobody checked her in, and the front desk marked it at day's end.
    visit(8, addDays(today, -1), 15, 0, { status: 'no_show', checkedInAt: null, completedAt: null, updatedAt: at(addDays(today, -1), 18, 0) }),
  ]);
}

type TNoteStep = { to: TNoteStatus; hoursAgo: number; by: string };
type TDemoNote = { patient: number; author: TStaff; noteType: string; content: string; createdHoursAgo: number; steps: TNoteStep[] };

/**
 * One note per status, each taken along the workflow by the people who may make each move, at
 * times in order: written, submitted to the scribe, reviewed, finalized (and the one submitted to
 * admin after that). Submission to finalization takes 26 hours for both finalized notes, the
 * figure the Analytics tab's turnaround shows for them.
 */
function demoNotes({ admin, nurse, nurse2, scribe }: TDemoStaff): TDemoNote[] {
  return [
    {
      patient: 0,
      author: nurse,
      noteType: 'Nurse Assessment',
      content: 'Vitals stable. BP 128/82, HR 72. Patient reports mild headache since yesterday.',
      createdHoursAgo: 2,
      steps: [],
    },
    {
      patient: 1,
      author: nurse,
      noteType: 'Progress Note',
      content: 'Follow-up on medication change; tolerating well, no side effects reported.',
      createdHoursAgo: 5,
      steps: [{ to: 'submitted_to_scribe', hoursAgo: 4, by: nurse.id }],
    },
    {
      patient: 2,
      author: nurse2,
      noteType: 'Procedure Note',
      content: 'Wound dressing changed; site clean, no signs of infection.',
      createdHoursAgo: 8,
      steps: [
        { to: 'submitted_to_scribe', hoursAgo: 7, by: nurse2.id },
        { to: 'reviewed_by_scribe', hoursAgo: 3, by: scribe.id },
      ],
    },
    {
      patient: 3,
      author: nurse,
      noteType: 'Treatment Plan',
      content: 'Continue physiotherapy twice weekly for four weeks.',
      createdHoursAgo: 53,
      steps: [
        { to: 'submitted_to_scribe', hoursAgo: 52, by: nurse.id },
        { to: 'reviewed_by_scribe', hoursAgo: 30, by: scribe.id },
        { to: 'finalized', hoursAgo: 26, by: admin.id },
      ],
    },
    {
      patient: 4,
      author: nurse2,
      noteType: 'Medication Review',
      content: 'Reviewed all current medications; no interactions found.',
      createdHoursAgo: 75,
      steps: [
        { to: 'submitted_to_scribe', hoursAgo: 74, by: nurse2.id },
        { to: 'reviewed_by_scribe', hoursAgo: 50, by: scribe.id },
        { to: 'finalized', hoursAgo: 48, by: admin.id },
        { to: 'submitted_to_admin', hoursAgo: 47, by: admin.id },
      ],
    },
  ];
}

async function seedNotes({ tx, ago }: TSeed, staff: TDemoStaff, people: TPatient[]): Promise<void> {
  const hoursAgo = (hours: number) => ago(hours * HOUR);
  const NOTES = demoNotes(staff);
  const stepAt = (steps: TNoteStep[], to: TNoteStatus) => {
    const step = steps.find((s) => s.to === to);
    return step ? hoursAgo(step.hoursAgo) : null;
  };
  const notes = await tx
    .insert(patientNotes)
    .values(
      NOTES.map((n) => ({
        patientId: people[n.patient]!.id,
        authorId: n.author.id,
        noteType: n.noteType,
        status: n.steps.at(-1)?.to ?? 'draft',
        content: n.content,
        scribeId: stepAt(n.steps, 'reviewed_by_scribe') ? staff.scribe.id : null,
        reviewedAt: stepAt(n.steps, 'reviewed_by_scribe'),
        finalizedAt: stepAt(n.steps, 'finalized'),
        submittedToAdminAt: stepAt(n.steps, 'submitted_to_admin'),
        createdAt: hoursAgo(n.createdHoursAgo),
        updatedAt: hoursAgo(n.steps.at(-1)?.hoursAgo ?? n.createdHoursAgo),
      })),
    )
    .returning();
  // Every note's history (docs/decisions/notes.md): its creation, then each move, as the
  // workflow writes them, so the history shows how the note got where it is.
  await tx.insert(noteRevisions).values(
    notes.flatMap((note, i) => {
      const steps = NOTES[i]!.steps;
      return [
        {
          noteId: note.id,
          at: note.createdAt,
          actorId: note.authorId,
          action: 'created' as const,
          toStatus: 'draft' as const,
          noteTypeAfter: note.noteType,
          contentAfter: note.content,
          attachmentsAfter: note.attachments,
        },
        ...steps.map((step, k) => ({
          noteId: note.id,
          at: hoursAgo(step.hoursAgo),
          actorId: step.by,
          action: 'moved' as const,
          fromStatus: k === 0 ? ('draft' as const) : steps[k - 1]!.to,
          toStatus: step.to,
        })),
      ];
    }),
  );
}

async function seedChat({ tx, ago }: TSeed, { admin, scheduler, nurse, nurse2, scribe }: TDemoStaff, people: TPatient[]): Promise<void> {
  const hoursAgo = (hours: number) => ago(hours * HOUR);
  const room = (patient: TPatient, topic: string, description: string, createdById: string, lastHoursAgo: number) => ({
    patientId: patient.id,
    name: `${patient.firstName} ${patient.lastName} - ${topic}`,
    description,
    createdById,
    lastActivityAt: hoursAgo(lastHoursAgo),
    createdAt: hoursAgo(72),
    updatedAt: hoursAgo(72),
  });
  const rooms = await tx
    .insert(patientChatRooms)
    .values([
      room(people[1]!, 'Cardiology', 'Care team for the medication change', scheduler.id, 1),
      room(people[2]!, 'Wound care', 'Dressing changes and follow-up', admin.id, 4),
    ])
    .returning();
  const joinedAt = hoursAgo(72);
  await tx
    .insert(chatRoomMembers)
    .values([
      ...[scheduler, nurse, scribe, admin].map((u) => ({ chatRoomId: rooms[0]!.id, userId: u.id, addedById: scheduler.id, joinedAt })),
      ...[admin, nurse2, scribe].map((u) => ({ chatRoomId: rooms[1]!.id, userId: u.id, addedById: admin.id, joinedAt })),
    ]);
  const said = (chatRoomId: string, senderId: string, content: string, hours: number, messageType?: 'note_update') => ({
    chatRoomId,
    senderId,
    content,
    ...(messageType ? { messageType } : {}),
    createdAt: hoursAgo(hours),
    updatedAt: hoursAgo(hours),
  });
  await tx
    .insert(chatMessages)
    .values([
      said(rooms[0]!.id, scheduler.id, 'Follow-up booked for next week; please review the new dosage.', 3),
      said(rooms[0]!.id, nurse.id, 'Vitals look good today. Note submitted for review.', 2, 'note_update'),
      said(rooms[0]!.id, scribe.id, 'Thanks, I will review it this afternoon.', 1),
      said(rooms[1]!.id, nurse2.id, 'Dressing changed, site is clean.', 4),
    ]);
}

/**
 * The Admin Panel's API Clients (issue 35): one in use (the scheduler accepted it reading as her,
 * issue 47), one revoked. Their secrets are made and dropped here, as a real client's are once
 * shown: nobody can sign in with them.
 */
async function seedApiClients({ tx, ago }: TSeed, { admin, scheduler, nurse }: TDemoStaff): Promise<void> {
  await tx.insert(apiClients).values([
    {
      name: 'Riverside Hospital referrals',
      actingUserId: scheduler.id,
      scopes: ['system/Patient.read', 'system/Appointment.read', 'system/Encounter.read'],
      secretHash: newSecret().hash,
      createdBy: admin.id,
      createdAt: ago(20 * 24 * HOUR),
      acceptedAt: ago(20 * 24 * HOUR - HOUR),
      lastUsedAt: ago(2 * HOUR),
    },
    {
      // A partner that signs with its own key (SMART Backend Services), publishing its keys itself.
      name: 'State health registry',
      actingUserId: admin.id,
      scopes: ['system/Patient.read', 'system/Condition.read', 'system/Observation.read'],
      authMethod: 'private_key_jwt' as const,
      jwksUrl: 'https://registry.example.org/.well-known/jwks.json',
      createdBy: admin.id,
      createdAt: ago(6 * 24 * HOUR),
      acceptedAt: ago(6 * 24 * HOUR),
      lastUsedAt: ago(26 * HOUR),
    },
    {
      name: 'Former patient portal',
      actingUserId: nurse.id,
      scopes: ['system/*.read'],
      secretHash: newSecret().hash,
      createdBy: admin.id,
      createdAt: ago(28 * 24 * HOUR),
      lastUsedAt: ago(9 * 24 * HOUR),
      revokedAt: ago(8 * 24 * HOUR),
      revokedBy: admin.id,
    },
  ]);
}

/** A group the clinic chose (issue 53): its hypertension programme, exported to the registry with Group/{id}/$export. */
async function seedPatientGroups({ tx, ago }: TSeed, { admin }: TDemoStaff, people: TPatient[]): Promise<void> {
  const [group] = await tx
    .insert(patientGroups)
    .values({ name: 'Hypertension programme', createdBy: admin.id, createdAt: ago(10 * 24 * HOUR), updatedAt: ago(10 * 24 * HOUR) })
    .returning({ id: patientGroups.id });
  // The patients whose problem lists hold I10 (demo-chart.ts).
  await tx
    .insert(patientGroupMembers)
    .values([0, 4].map((i) => ({ groupId: group!.id, patientId: people[i]!.id, addedBy: admin.id, addedAt: ago(10 * 24 * HOUR) })));
}
