import { eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { emailKey } from '#domain/email';
import { users } from '../../db/schema/auth.ts';

/** The one email rule (domain/email.ts): sign-in, throttling and uniqueness all compare by it. */
export const normalizeEmail = emailKey;

/** The comparison key of an email in SQL: the unique index's expression (migration 0011). */
export const emailKeySql = (value: SQL) => sql`normalize(lower(normalize(${value}, NFKC)), NFKC)`;

/** By the unique index's own expression, so the lookup uses it and matches what it refuses as a duplicate. */
export async function findUserByEmail(q: Queryable, email: string) {
  const [user] = await q
    .select()
    .from(users)
    .where(eq(emailKeySql(sql`${users.email}`), emailKeySql(sql`${normalizeEmail(email)}`)))
    .limit(1);
  return user ?? null;
}

export async function findUserById(q: Queryable, id: string) {
  const [user] = await q.select().from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

export const toCurrentUser = (u: typeof users.$inferSelect) => ({ id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role });

/** A sign-in happened (shown as 'Last sign-in' in user management). */
export async function recordSignIn(q: Queryable, id: string, now: Date) {
  await q.update(users).set({ lastSignInAt: now }).where(eq(users.id, id));
}
