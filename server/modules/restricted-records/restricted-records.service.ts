import { staffName } from '#domain/auth';
import { BREAK_GLASS_REASON_LABELS, patientLabel } from '#domain/record-scope';
import {
  breakGlassReviewHold,
  type TBreakGlassGrant,
  type TBreakGlassRequest,
  type TBreakGlassReview,
  type TRestriction,
  type TSetRestriction,
} from '#domain/restricted-records';
import { recordAudit } from '../../audit/audit-writer.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { writerOf } from '../../scope/writer.ts';
import { readOf } from '../../scope/reader.ts';
import { requireFreshFactor } from '../auth/second-factor.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import {
  activeAdminIds,
  careTeamOf,
  closeReview,
  endRunningGrant,
  eligibleMembers,
  findRestriction,
  insertGrant,
  listGrants,
  replaceCareTeam,
  setRestrictedAt,
} from './restricted-records.queries.ts';

const NOT_FOUND = 'Patient not found';

async function restrictionOf(q: Deps['db'], patientId: string): Promise<TRestriction | null> {
  const found = await findRestriction(q, patientId);
  if (!found) return null;
  return { restricted: found.restrictedAt !== null, restrictedAt: found.restrictedAt?.toISOString() ?? null, careTeam: await careTeamOf(q, patientId) };
}

/**
 * The reads of restricted records (issue 33), for admins: a patient's restriction and care team
 * (who cares for her is part of her record), and the break-glass review queue.
 */
export const RESTRICTED_READS = {
  restriction: readOf({
    action: 'patient.restriction_read',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: ({ db }, patientId: string) => restrictionOf(db, patientId),
    shows: (_r, patientId) => ({ entityId: patientId, patientId }),
  }),
  queue: readOf({
    action: 'patient.break_glass_queue',
    entityType: 'break_glass',
    run: ({ db }, status: 'open' | 'closed' | 'all') => listGrants(db, { status }),
    shows: (grants: TBreakGlassGrant[]) => (grants.length > 0 ? { patientIds: [...new Set(grants.map((g) => g.patientId))] } : null),
  }),
};

/**
 * An admin restricts a record (or lifts it) and names its care team: only they, and those who
 * break the glass, see the patient from the next request on, on every instance. Each person
 * added or taken off has her cached sessions forgotten; the shared first page of patients too.
 */
export async function setRestriction(deps: Deps, ctx: SignedInContext, patientId: string, input: TSetRestriction): Promise<TRestriction> {
  const now = deps.config.now();
  const team = [...new Set(input.careTeam)];
  await inTransaction(deps, async (tx, raise) => {
    const current = await findRestriction(tx, patientId, true);
    if (!current) throw notFound(NOT_FOUND);
    const eligible = new Set(await eligibleMembers(tx, team));
    const refused = team.filter((id) => !eligible.has(id));
    if (refused.length > 0) throw invalid('careTeam', 'Each member must be an active user whose role reads patient records');
    const before = (await careTeamOf(tx, patientId)).map((m) => m.id);
    const after = input.restricted ? team : [];
    const wasRestricted = current.restrictedAt !== null;
    if (input.restricted !== wasRestricted) {
      await setRestrictedAt(tx, patientId, input.restricted ? now : null, input.restricted ? ctx.user.id : null);
      await recordAudit(tx, ctx, {
        action: input.restricted ? 'patient.restrict' : 'patient.unrestrict',
        entityType: 'patient',
        entityId: patientId,
        patientId,
      });
    }
    const sameTeam = before.length === after.length && before.every((id) => after.includes(id));
    if (!sameTeam) {
      await replaceCareTeam(tx, patientId, after, ctx.user.id);
      await recordAudit(tx, ctx, { action: 'patient.care_team', entityType: 'patient', entityId: patientId, patientId });
    }
    for (const userId of new Set([...before, ...after])) raise({ type: 'user.accessChanged', userId });
    raise({ type: 'patient.updated', patientId, actorId: ctx.user.id });
  });
  return (await restrictionOf(deps.db, patientId))!;
}

/**
 * Break-glass: someone outside a restricted patient's care team opens her record in an
 * emergency, after a fresh second factor, with a reason and a justification, for a time. Every
 * admin is told at once (live), the use waits in the review queue, and every access under it is
 * tagged in the audit trail with the grant.
 */
export async function breakGlass(deps: Deps, ctx: SignedInContext, patientId: string, input: TBreakGlassRequest): Promise<TBreakGlassGrant> {
  const now = deps.config.now();
  const found = await findRestriction(deps.db, patientId);
  if (!found) throw notFound(NOT_FOUND);
  if (found.restrictedAt === null) throw invalid('patientId', 'This record is not restricted: open it as usual');
  if (await writerOf(deps.db, ctx, now).sees(patientId)) throw invalid('patientId', 'You already see this record');
  await requireFreshFactor(deps, ctx, input.proof);
  const grantId = await inTransaction(deps, async (tx, raise) => {
    const id = await insertGrant(tx, {
      patientId,
      userId: ctx.user.id,
      reason: input.reason,
      justification: input.justification,
      startedAt: now,
      expiresAt: new Date(now.getTime() + input.minutes * 60_000),
    });
    const underGrant = { ...ctx, breakGlass: new Map([[patientId, id]]) };
    await recordAudit(tx, underGrant, { action: 'patient.break_glass', entityType: 'break_glass', entityId: id, patientId });
    const who = staffName(ctx.user);
    for (const adminId of await activeAdminIds(tx)) {
      await notify(tx, raise, {
        userId: adminId,
        type: 'break_glass',
        title: 'Emergency access to a restricted record',
        message: `${who} opened ${patientLabel(patientId)} for ${input.minutes} minutes: ${BREAK_GLASS_REASON_LABELS[input.reason]}. Review it in Admin Panel → Emergency access.`,
        entityId: id,
      });
    }
    raise({ type: 'user.accessChanged', userId: ctx.user.id });
    return id;
  });
  return (await listGrants(deps.db, { status: 'all', id: grantId }))[0]!;
}

/**
 * The holder ends her emergency access before its time, once she has what she needed: the record
 * closes to her at once (her sessions re-read their reach), and the use can be reviewed now.
 */
export async function endBreakGlass(deps: Deps, ctx: SignedInContext, patientId: string): Promise<TBreakGlassGrant> {
  const now = deps.config.now();
  const grantId = await inTransaction(deps, async (tx, raise) => {
    const id = await endRunningGrant(tx, patientId, ctx.user.id, now);
    if (!id) throw notFound('No emergency access of yours is running for this patient');
    await recordAudit(tx, ctx, { action: 'patient.break_glass_end', entityType: 'break_glass', entityId: id, patientId });
    raise({ type: 'user.accessChanged', userId: ctx.user.id });
    return id;
  });
  return (await listGrants(deps.db, { status: 'all', id: grantId }))[0]!;
}

/**
 * An admin closes a use of break-glass with a disposition, once: after it has ended, and never
 * her own (domain/restricted-records.ts `breakGlassReviewHold`).
 */
export async function reviewBreakGlass(deps: Deps, ctx: SignedInContext, grantId: string, input: TBreakGlassReview): Promise<TBreakGlassGrant> {
  const now = deps.config.now();
  await inTransaction(deps, async (tx) => {
    const [grant] = await listGrants(tx, { status: 'all', id: grantId });
    if (!grant) throw notFound('Emergency access not found');
    const hold = breakGlassReviewHold(grant, ctx.user.id, now);
    if (hold === 'own') throw new HttpError('breakGlass.ownUse');
    if (hold === 'running') throw new HttpError('breakGlass.running');
    if (!(await closeReview(tx, grantId, { by: ctx.user.id, at: now, disposition: input.disposition, note: input.note || null }))) {
      throw new HttpError('record.conflict', { message: 'This emergency access was reviewed already' });
    }
    await recordAudit(tx, ctx, { action: 'patient.break_glass_review', entityType: 'break_glass', entityId: grantId, patientId: grant.patientId });
  });
  return (await listGrants(deps.db, { status: 'all', id: grantId }))[0]!;
}
