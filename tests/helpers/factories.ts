import { randomBytes } from 'node:crypto';
import { startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { TRole } from '#domain/roles';
import type { Db } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/auth.ts';
import { appointments, patients } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';

/** Unique values, so tests share a database without seeing each other's rows. */
export const unique = (prefix = 'x') => `${prefix}${randomBytes(5).toString('hex')}`;

export const TEST_PASSWORD = 'correct horse battery staple';
// Hashing is deliberately slow; one hash serves every test user.
const passwordHash = hashPassword(TEST_PASSWORD);

export async function createUser(db: Db, overrides: Partial<typeof users.$inferInsert> & { role?: TRole } = {}) {
  const [user] = await db
    .insert(users)
    .values({
      email: `${unique(overrides.role ?? 'user')}@test.clinic`,
      firstName: unique('First'),
      lastName: unique('Last'),
      role: 'nurse',
      passwordHash: await passwordHash,
      ...overrides,
    })
    .returning();
  return user!;
}

/** Form-shaped patient input with unique names, so searches find only this test's patients. */
export function patientInput(overrides: Record<string, unknown> = {}) {
  return { firstName: unique('Ann'), lastName: unique('Lee'), dateOfBirth: '1980-05-17', email: `${unique('p')}@example.com`, phone: '555-0100', ...overrides };
}

/**
 * A patient row written straight to the database (no route, no audit row), for tests whose
 * subject is something else: appointments, notes, chat. Unique names keep searches apart.
 */
export async function insertPatient(db: Db, overrides: Partial<typeof patients.$inferInsert> = {}) {
  const [patient] = await db
    .insert(patients)
    .values({ firstName: unique('Ann'), lastName: unique('Lee'), dateOfBirth: '1980-05-17', email: `${unique('p')}@example.com`, ...overrides })
    .returning();
  return patient!;
}

/** An unread, active notification of `userId`, written straight to the database. */
export async function insertNotification(db: Db, userId: string, overrides: Partial<Omit<typeof notifications.$inferInsert, 'userId'>> = {}) {
  const [notification] = await db
    .insert(notifications)
    .values({ userId, type: 'notes_pending', title: unique('Notes pending '), ...overrides })
    .returning();
  return notification!;
}

/**
 * An appointment row written straight to the database (no route, no conflict check beyond the
 * database's own, no notification), for tests that need one in a given state or in the past.
 * Each gets its own patient unless one is given, and no room or staff, so it clashes with nothing.
 */
export async function insertAppointment(db: Db, providerId: string, overrides: Partial<Omit<typeof appointments.$inferInsert, 'providerId'>> = {}) {
  const patientId = overrides.patientId ?? (await insertPatient(db)).id;
  const [appointment] = await db
    .insert(appointments)
    .values({ patientId, providerId, appointmentDate: new Date(Date.UTC(2030, 0, 1, 15, 0)), ...overrides })
    .returning();
  return appointment!;
}

/**
 * Moves the test clock to noon of the clinic's today, so a test that walks visits through their
 * day (Check In and Start Visit on the visit's day, Complete from its start: domain/visit-timing.ts)
 * has the whole afternoon of clock to advance through, whatever the hour it runs at.
 */
export function clockToClinicNoon(clock: { now(): Date; advance(ms: number): void }, timeZone: string): void {
  const noon = startOfZonedDay(zonedDate(clock.now(), timeZone), timeZone).getTime() + 12 * 3_600_000;
  clock.advance(noon - clock.now().getTime());
}

/** A start `minutesAgo` before the clock's now: a visit whose time has come, on today (after clockToClinicNoon). */
export const startedAgo = (clock: { now(): Date }, minutesAgo = 5) => new Date(clock.now().getTime() - minutesAgo * 60_000);

/** The schedule form's payload (spec section 7) for a patient, at a time in the future by default. */
export function appointmentInput(patientId: string, overrides: Record<string, unknown> = {}) {
  return {
    patientId,
    appointmentDate: '2031-03-04T15:00:00.000Z',
    duration: 30,
    appointmentType: 'consultation',
    reason: 'Check-up',
    notes: null,
    roomNumber: null,
    assignedNurseId: null,
    assignedScribeId: null,
    ...overrides,
  };
}

/**
 * A lab catalogue test as `POST /api/lab-tests` takes it: an electrolytes panel (LOINC 24326-1)
 * with potassium (2823-3, numeric, with its ranges) and an appearance without a LOINC code.
 */
export const electrolytesTestInput = () => ({
  name: unique('Electrolytes'),
  loinc: '24326-1',
  analytes: [
    {
      name: 'Potassium',
      loinc: '2823-3',
      unit: 'mmol/L',
      kind: 'numeric',
      ranges: [{ sex: null, ageFrom: null, ageTo: null, low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 }],
    },
    { name: 'Appearance', loinc: null, unit: null, kind: 'text', ranges: [] },
  ],
});
