import { randomBytes } from 'node:crypto';
import type { TRole } from '#domain/roles';
import type { Db } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/auth.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';

/** Unique values, so tests share a database without seeing each other's rows. */
export const unique = (prefix = 'x') => `${prefix}${randomBytes(5).toString('hex')}`;

export const TEST_PASSWORD = 'correct horse battery staple';
// Hashing is deliberately slow; one hash serves every test user.
const passwordHash = hashPassword(TEST_PASSWORD);

export async function createUser(db: Db, overrides: Partial<typeof users.$inferInsert> & { role?: TRole } = {}) {
  const [user] = await db.insert(users).values({
    email: `${unique(overrides.role ?? 'user')}@test.clinic`,
    firstName: unique('First'),
    lastName: unique('Last'),
    role: 'nurse',
    passwordHash: await passwordHash,
    ...overrides,
  }).returning();
  return user!;
}

/** Form-shaped patient input with unique names, so searches find only this test's patients. */
export function patientInput(overrides: Record<string, unknown> = {}) {
  return {
    firstName: unique('Ann'),
    lastName: unique('Lee'),
    dateOfBirth: '1980-05-17',
    email: `${unique('p')}@example.com`,
    phone: '555-0100',
    ...overrides,
  };
}

/**
 * A patient row written straight to the database (no route, no audit row), for tests whose
 * subject is something else: appointments, notes, chat. Unique names keep searches apart.
 */
export async function insertPatient(db: Db, overrides: Partial<typeof patients.$inferInsert> = {}) {
  const [patient] = await db.insert(patients).values({
    firstName: unique('Ann'),
    lastName: unique('Lee'),
    dateOfBirth: '1980-05-17',
    email: `${unique('p')}@example.com`,
    ...overrides,
  }).returning();
  return patient!;
}

/** An unread, active notification of `userId`, written straight to the database. */
export async function insertNotification(
  db: Db,
  userId: string,
  overrides: Partial<Omit<typeof notifications.$inferInsert, 'userId'>> = {},
) {
  const [notification] = await db.insert(notifications).values({
    userId,
    type: 'notes_pending',
    title: unique('Notes pending '),
    ...overrides,
  }).returning();
  return notification!;
}
