import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TPrescriber, TSigningPrescriber } from '#domain/prescriptions';
import type { Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/auth.ts';
import { prescriberRights } from '../../db/schema/prescriptions.ts';

const granter = alias(users, 'granter');

/** Every user with rights, granted or revoked, by name. */
export async function listPrescribers(q: Queryable, userId?: string): Promise<TPrescriber[]> {
  const r = prescriberRights;
  const rows = await q
    .select({
      rights: r,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      grantedByName: sql<string | null>`nullif(concat_ws(' ', ${granter.firstName}, ${granter.lastName}), '')`,
    })
    .from(r)
    .innerJoin(users, eq(users.id, r.userId))
    .leftJoin(granter, eq(granter.id, r.grantedById))
    .where(userId ? eq(r.userId, userId) : undefined)
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, r.userId);
  return rows.map(({ rights, ...user }) => ({
    userId: rights.userId,
    ...user,
    licenseNumber: rights.licenseNumber,
    licenseState: rights.licenseState as TPrescriber['licenseState'],
    npi: rights.npi,
    deaNumber: rights.deaNumber,
    grantedAt: rights.grantedAt.toISOString(),
    revokedAt: rights.revokedAt?.toISOString() ?? null,
    updatedAt: rights.updatedAt.toISOString(),
  }));
}

/** Those who may sign now (rights standing, account active), by name: whom a writer names as the prescriber. */
export async function signingPrescribers(q: Queryable): Promise<TSigningPrescriber[]> {
  const rows = await q
    .select({
      userId: prescriberRights.userId,
      name: sql<string>`coalesce(nullif(concat_ws(' ', ${users.firstName}, ${users.lastName}), ''), ${users.email})`,
      controlled: sql<boolean>`${prescriberRights.deaNumber} is not null`,
    })
    .from(prescriberRights)
    .innerJoin(users, eq(users.id, prescriberRights.userId))
    .where(sql`${prescriberRights.revokedAt} is null and ${users.isActive}`)
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, prescriberRights.userId);
  return rows;
}

export async function lockRights(q: Queryable, userId: string) {
  const [row] = await q.select().from(prescriberRights).where(eq(prescriberRights.userId, userId)).for('update');
  return row ?? null;
}

/** The user rights would be granted to: her role and whether she is active. */
export async function grantee(q: Queryable, userId: string) {
  const [row] = await q.select({ role: users.role, isActive: users.isActive }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** Her prescribing rights while they stand (not revoked), or null: what signing, and naming a prescriber, ask. */
export async function activeRights(q: Queryable, userId: string) {
  const [row] = await q
    .select({ deaNumber: prescriberRights.deaNumber, isActive: users.isActive })
    .from(prescriberRights)
    .innerJoin(users, eq(users.id, prescriberRights.userId))
    .where(sql`${prescriberRights.userId} = ${userId}::uuid and ${prescriberRights.revokedAt} is null`);
  return row?.isActive ? row : null;
}
