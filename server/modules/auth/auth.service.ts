import { setTimeout as sleep } from 'node:timers/promises';
import type { TCurrentUser, TLogin } from '#domain/auth';
import type { TSecondFactorNeeded } from '#domain/second-factor';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { actingAs, type RequestContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { findUserByEmail, normalizeEmail, toCurrentUser } from './auth.queries.ts';
import { isShutDemoAccount } from './demo-accounts.ts';
import {
  countSignInFailure,
  releaseAttempt,
  signInLockedFor,
  signInSucceeded,
  slowdownMs,
  takeAttempt,
  PAIR_POLICY,
  throttledError,
  throttleKeys,
} from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { endSession } from '../../sessions/session-store.ts';
import { beginSession } from './begin-session.ts';
import { secondFactorMethods, startSecondStep } from './second-factor.service.ts';

/** A sign-in's first step: a session, or (for a user with a second factor) a challenge waiting for it. */
export type TLoginResult = { user: TCurrentUser; token: string } | { secondFactor: TSecondFactorNeeded['secondFactor']; challengeToken: string };

export async function login(deps: Deps, ctx: RequestContext, input: TLogin): Promise<TLoginResult> {
  const { db, config } = deps;
  const now = config.now();
  const email = normalizeEmail(input.email);
  const keys = throttleKeys(email, ctx.ip);
  const retryAfter = await signInLockedFor(db, keys, email, ctx.ip, now);
  if (retryAfter !== null) throw await refuseLocked(deps, ctx, email, retryAfter);
  const attempt = await takeAttempt(db, keys.pair, now, PAIR_POLICY);
  if ('refusedFor' in attempt) throw await refuseLocked(deps, ctx, email, attempt.refusedFor);

  // A demo account outside demo mode is answered as an unknown one (same decoy hash, same time).
  const user = isShutDemoAccount(config, email) ? null : await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    await db.transaction(async (tx) => {
      await recordAudit(tx, ctx, { action: 'auth.login_failed', entityType: 'user', entityId: user?.id ?? null, outcome: 'denied' });
      await countSignInFailure(tx, keys, now);
    });
    await sleep(slowdownMs(attempt.failures));
    throw new HttpError('signIn.invalidCredentials');
  }
  const signedIn = toCurrentUser(user);
  // The password was right: its attempt does not count against the pair (the second step takes its own).
  await releaseAttempt(db, attempt);
  if (!user.isActive) {
    await recordAudit(db, actingAs(ctx, signedIn), { action: 'auth.login_refused_inactive', entityType: 'user', entityId: user.id, outcome: 'denied' });
    throw new HttpError('signIn.deactivated');
  }

  // Someone with a second factor gets no session for the password alone: a challenge waits for the code.
  const methods = await secondFactorMethods(db, user.id);
  if (methods.length > 0) {
    const challengeToken = await inTransaction(deps, async (tx) => {
      await recordAudit(tx, actingAs(ctx, signedIn), { action: 'auth.second_factor_required', entityType: 'user', entityId: user.id });
      return startSecondStep(tx, deps, user.id, 'password', '/');
    });
    return { secondFactor: { methods }, challengeToken };
  }

  const token = await inTransaction(deps, async (tx, raise) => {
    await signInSucceeded(tx, keys, email, ctx.ip, now);
    return beginSession(deps, tx, raise, actingAs(ctx, signedIn), 'auth.login');
  });
  return { user: signedIn, token };
}

async function refuseLocked(deps: Deps, ctx: RequestContext, email: string, retryAfter: number): Promise<HttpError> {
  await recordAudit(deps.db, ctx, { action: 'auth.login_refused_locked', entityType: 'user', entityId: email.slice(0, 100), outcome: 'denied' });
  return throttledError(retryAfter);
}

export async function logout(deps: Deps, ctx: RequestContext): Promise<void> {
  const token = ctx.sessionToken;
  if (!token) return;
  await inTransaction(deps, async (tx, raise) => {
    await endSession(tx, raise, deps.sessions, token);
    if (ctx.user) await recordAudit(tx, ctx, { action: 'auth.logout', entityType: 'user', entityId: ctx.user.id });
  });
}
