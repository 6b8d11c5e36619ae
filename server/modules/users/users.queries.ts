import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { TRole } from '#domain/roles';
import type { TAdminUser, TAdminUserQuery, TDirectoryEntry, TDirectoryQuery, TUserStatus } from '#domain/users';
import { queryRows, type Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { sessions, users, userTokens } from '../../db/schema/auth.ts';
import { emailKeySql } from '../auth/auth.queries.ts';
import { pageOfUsers, type TUserCursor } from '../staff/staff.queries.ts';
import { escapeLike } from '../../db/like.ts';

const STATUS = sql`case when is_active then 'active' when invited_at is not null then 'invited' else 'deactivated' end`;
const STATUS_WHERE: Record<TUserStatus, SQL> = {
  active: sql`is_active`,
  invited: sql`not is_active and invited_at is not null`,
  deactivated: sql`not is_active and invited_at is null`,
};
const ADMIN_COLUMNS = sql`id, email, first_name as "firstName", last_name as "lastName", role, is_active as "isActive",
  ${STATUS} as status, ${isoText(sql`last_sign_in_at`)} as "lastSignInAt", second_factor_at is not null as "hasSecondFactor"`;

/** Every account in name order, filtered as the admin asked. A staff list: no patient data. */
export function listUsers(q: Queryable, opts: Omit<TAdminUserQuery, 'cursor'> & { after: TUserCursor | null }) {
  const where: SQL[] = [];
  if (opts.search) {
    const like = `%${escapeLike(opts.search)}%`;
    where.push(sql`(first_name ilike ${like} or last_name ilike ${like} or email ilike ${like})`);
  }
  if (opts.role) where.push(sql`role = ${opts.role}`);
  if (opts.status) where.push(STATUS_WHERE[opts.status]);
  return pageOfUsers<TAdminUser>(q, ADMIN_COLUMNS, where, opts.limit, opts.after);
}

const DIRECTORY_COLUMNS = sql`id, first_name as "firstName", last_name as "lastName", role, ${STATUS} as status`;

/**
 * The staff directory (a scheduler's User Management tab): the same accounts in the same order,
 * with their names, roles and status only, searched by name.
 */
export function listDirectory(q: Queryable, opts: Omit<TDirectoryQuery, 'cursor'> & { after: TUserCursor | null }) {
  const where: SQL[] = [];
  if (opts.search) {
    const like = `%${escapeLike(opts.search)}%`;
    where.push(sql`(first_name ilike ${like} or last_name ilike ${like})`);
  }
  if (opts.role) where.push(sql`role = ${opts.role}`);
  if (opts.status) where.push(STATUS_WHERE[opts.status]);
  return pageOfUsers<TDirectoryEntry>(q, DIRECTORY_COLUMNS, where, opts.limit, opts.after);
}

export async function userById(q: Queryable, id: string): Promise<TAdminUser | null> {
  const [row] = await queryRows<TAdminUser>(q, sql`select ${ADMIN_COLUMNS} from users where id = ${id}`);
  return row ?? null;
}

/** The account holding this email under the uniqueness rule (case and NFKC forms alike), locked for the change. */
export async function userByEmailForUpdate(q: Queryable, email: string): Promise<TAdminUser | null> {
  const [row] = await queryRows<TAdminUser>(
    q,
    sql`select ${ADMIN_COLUMNS} from users
    where ${emailKeySql(sql`email`)} = ${emailKeySql(sql`${email}`)} for update`,
  );
  return row ?? null;
}

export async function lockUser(q: Queryable, id: string): Promise<TAdminUser | null> {
  const [row] = await queryRows<TAdminUser>(q, sql`select ${ADMIN_COLUMNS} from users where id = ${id} for update`);
  return row ?? null;
}

/**
 * The active admins, locked: two admins demoting or deactivating each other at once take turns
 * here, so the second sees the first's change and the clinic always keeps one.
 */
export async function lockActiveAdmins(q: Queryable, adminRoles: readonly TRole[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`select id from users
    where role in (${sql.join(
      adminRoles.map((r) => sql`${r}`),
      sql`, `,
    )}) and is_active order by id for update`,
  );
  return rows.map((r) => r.id);
}

export async function insertInvitedUser(q: Queryable, input: { email: string; firstName: string; lastName: string; role: TRole }, now: Date) {
  const [row] = await q
    .insert(users)
    .values({ ...input, isActive: false, invitedAt: now, passwordHash: null })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return row?.id ?? null;
}

/**
 * An account that is active from the start with no password yet (npm run create-admin): it
 * sets one through its one-time link, or signs in through the identity provider.
 */
export async function insertActiveUser(q: Queryable, input: { email: string; firstName: string | null; lastName: string | null; role: TRole }) {
  const [row] = await q
    .insert(users)
    .values({ ...input, isActive: true, invitedAt: null, passwordHash: null })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return row?.id ?? null;
}

export async function setRole(q: Queryable, id: string, role: TRole, now: Date) {
  await q.update(users).set({ role, updatedAt: now }).where(eq(users.id, id));
}

/** Deactivating deletes the user's sessions too (a database trigger, migration 0003). */
export async function setActive(q: Queryable, id: string, isActive: boolean, now: Date) {
  await q.update(users).set({ isActive, updatedAt: now }).where(eq(users.id, id));
}

/** Sets the password; an invite's completes the account (active, no longer invited). */
export async function setPasswordHash(q: Queryable, id: string, passwordHash: string, activate: boolean, now: Date) {
  await q
    .update(users)
    .set({ passwordHash, updatedAt: now, ...(activate ? { isActive: true, invitedAt: null } : {}) })
    .where(eq(users.id, id));
}

/** Every session of the user: a new password ends the ones a thief may hold. */
export async function deleteSessionsOf(q: Queryable, userId: string) {
  await q.delete(sessions).where(sql`${sessions.sess}->>'userId' = ${userId}`);
}

// ---- one-time links ----

/** A new link for the user; any earlier link of theirs not yet used is spent, so only the newest works. */
export async function insertLink(
  q: Queryable,
  link: { userId: string; purpose: 'invite' | 'reset'; tokenHash: string; createdBy: string | null; expiresAt: Date },
  now: Date,
) {
  await q
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, link.userId), isNull(userTokens.usedAt)));
  await q.insert(userTokens).values({ ...link, createdAt: now });
}

export async function linkByHash(q: Queryable, tokenHash: string, lock = false) {
  const rows = await queryRows<{
    id: string;
    userId: string;
    purpose: 'invite' | 'reset';
    expiresAt: Date;
    usedAt: Date | null;
    email: string;
    firstName: string | null;
  }>(
    q,
    sql`
    select t.id, t.user_id as "userId", t.purpose, t.expires_at as "expiresAt", t.used_at as "usedAt", u.email, u.first_name as "firstName"
    from user_tokens t join users u on u.id = t.user_id
    where t.token_hash = ${tokenHash} ${lock ? sql`for update of t` : sql``}`,
  );
  const row = rows[0];
  return row ? { ...row, expiresAt: new Date(row.expiresAt), usedAt: row.usedAt ? new Date(row.usedAt) : null } : null;
}

export async function spendLink(q: Queryable, id: string, now: Date) {
  await q.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, id));
}
