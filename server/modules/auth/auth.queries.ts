import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/auth.ts';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(q: Queryable, email: string) {
  const [user] = await q.select().from(users).where(eq(sql`lower(${users.email})`, normalizeEmail(email))).limit(1);
  return user ?? null;
}

export const toCurrentUser = (u: typeof users.$inferSelect) => ({
  id: u.id,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  role: u.role,
});
