import { ROLES } from '#domain/roles';
import type { TFactorProof, TSecondFactorPolicy, TStoredSecondFactorPolicy } from '#domain/second-factor';
import { recordAudit } from '../../audit/audit-writer.ts';
import { readStoredSettings, secondFactorPolicyOf } from '../../clinic/clinic-settings.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { endSessionsOfUser } from '../../sessions/session-store.ts';
import { findUserById } from './auth.queries.ts';
import { notify } from '../notifications/notifications.service.ts';
import { lockStoredSettings, writeSecondFactorPolicy } from '../settings/settings.queries.ts';
import { deleteAllFactors, syncSecondFactorAt } from './second-factor.queries.ts';
import { requireFreshFactor } from './second-factor.service.ts';

/** The policy as stored (not this instance's copy: the admin sees what is saved). */
export async function secondFactorPolicyOfClinic(deps: Deps): Promise<TStoredSecondFactorPolicy> {
  return secondFactorPolicyOf((await readStoredSettings(deps.db)).secondFactorPolicy);
}

/**
 * Saves every role's policy. A role newly required gets its grace from now (`requiredSince`);
 * one already required keeps its date, so editing the days does not restart anyone's clock.
 */
export async function updateSecondFactorPolicy(deps: Deps, ctx: SignedInContext, input: TSecondFactorPolicy): Promise<TStoredSecondFactorPolicy> {
  const now = deps.config.now();
  await inTransaction(deps, async (tx, raise) => {
    const before = secondFactorPolicyOf((await lockStoredSettings(tx)).secondFactorPolicy);
    const next = Object.fromEntries(
      ROLES.map((role) => {
        const { mode, graceDays } = input[role];
        const requiredSince = mode !== 'required' ? null : before[role].mode === 'required' ? before[role].requiredSince : now.toISOString();
        return [role, { mode, graceDays, requiredSince }];
      }),
    ) as TStoredSecondFactorPolicy;
    await writeSecondFactorPolicy(tx, next, ctx.user.id, now);
    await recordAudit(tx, ctx, { action: 'settings.second_factor_policy', entityType: 'clinic_settings' });
    raise({ type: 'settings.changed', actorId: ctx.user.id });
  });
  await deps.settings.refresh();
  return secondFactorPolicyOfClinic(deps);
}

/**
 * An admin resets another user's second factors (a lost phone): after a fresh second factor of
 * her own, the user's factors and recovery codes go, her sessions end everywhere, and she is
 * told. She signs in with her password and enrols again (at once, if her role requires it and
 * her grace has passed).
 */
export async function resetUserFactors(deps: Deps, ctx: SignedInContext, userId: string, proof: TFactorProof): Promise<void> {
  const target = await findUserById(deps.db, userId);
  if (!target) throw notFound();
  await requireFreshFactor(deps, ctx, proof);
  const now = deps.config.now();
  await inTransaction(deps, async (tx, raise) => {
    await deleteAllFactors(tx, userId);
    await syncSecondFactorAt(tx, userId, now);
    await endSessionsOfUser(tx, userId);
    await recordAudit(tx, ctx, { action: 'user.factors_reset', entityType: 'user', entityId: userId });
    await notify(tx, raise, {
      userId,
      type: 'account_changed',
      title: 'Your second factors were reset',
      message: 'An administrator removed your authenticator apps, passkeys and recovery codes. Sign in with your password and set up a new second factor.',
      entityId: userId,
    });
    raise({ type: 'user.accessChanged', userId });
  });
  // Her sessions are gone: this instance stops answering them at once, the event tells the others.
}
