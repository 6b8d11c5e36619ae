import { eq } from 'drizzle-orm';
import { rolesWith } from '#domain/permissions';
import type { TPrescriber, TPrescriberRightsInput } from '#domain/prescriptions';
import { recordAudit } from '../../audit/audit-writer.ts';
import { prescriberRights } from '../../db/schema/prescriptions.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { grantee, listPrescribers, lockRights, signingPrescribers } from './prescribers.queries.ts';

/**
 * Prescribing rights (issue 52; docs/decisions/prescriptions.md): an admin grants them to an
 * active admin or nurse, with her license, NPI and (for controlled substances) DEA number;
 * changes and revokes them. Every step is audited; a revoked grant stays (her signed
 * prescriptions name it) and may be granted again.
 */
export const prescribersFor = (deps: Deps) => listPrescribers(deps.db);

/** Whom a writer may name to sign: names only (her license and numbers are the admin's to see, and the paper's). */
export const prescribersToName = (deps: Deps) => signingPrescribers(deps.db);

const SIGNING_ROLES = rolesWith('prescriptions.sign');

export async function grantRights(deps: Deps, ctx: SignedInContext, userId: string, input: TPrescriberRightsInput): Promise<TPrescriber> {
  const { updatedAt, ...credentials } = input;
  await inTransaction(deps, async (tx) => {
    const user = await grantee(tx, userId);
    if (!user) throw notFound('User not found');
    if (!user.isActive) throw new HttpError('record.conflict', { message: 'A deactivated account cannot be granted prescribing rights' });
    if (!SIGNING_ROLES.includes(user.role)) throw invalid('userId', 'Only an admin or a nurse (a nurse practitioner) may hold prescribing rights');
    const now = deps.config.now();
    const current = await lockRights(tx, userId);
    if (current && updatedAt !== undefined && updatedAt !== current.updatedAt.toISOString()) throw stale();
    // Granted anew (the first time, or after a revocation), or its credentials changed.
    const granting = !current || current.revokedAt !== null;
    const granted = granting ? { grantedAt: now, grantedById: ctx.user.id, revokedAt: null, revokedById: null } : {};
    await tx
      .insert(prescriberRights)
      .values({ userId, ...credentials, grantedAt: now, grantedById: ctx.user.id, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: prescriberRights.userId, set: { ...credentials, ...granted, updatedAt: now } });
    await recordAudit(tx, ctx, { action: granting ? 'prescriber.grant' : 'prescriber.update', entityType: 'user', entityId: userId });
  });
  return (await listPrescribers(deps.db, userId))[0]!;
}

export async function revokeRights(deps: Deps, ctx: SignedInContext, userId: string): Promise<TPrescriber> {
  await inTransaction(deps, async (tx) => {
    const current = await lockRights(tx, userId);
    if (!current || current.revokedAt !== null) throw notFound('This user holds no prescribing rights');
    const now = deps.config.now();
    await tx.update(prescriberRights).set({ revokedAt: now, revokedById: ctx.user.id, updatedAt: now }).where(eq(prescriberRights.userId, userId));
    await recordAudit(tx, ctx, { action: 'prescriber.revoke', entityType: 'user', entityId: userId });
  });
  return (await listPrescribers(deps.db, userId))[0]!;
}
