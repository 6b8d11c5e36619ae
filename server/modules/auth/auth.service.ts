import { setTimeout as sleep } from 'node:timers/promises';
import { tooManyAttemptsMessage } from '#domain/errors';
import type { TCurrentUser, TLogin } from '#domain/auth';
import type { Queryable } from '../../db/database.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { actingAs, type RequestContext, type SignedInContext } from '../../http/request-context.ts';
import type { TChangeAction } from '#domain/audit';
import { recordAudit } from '../../audit/audit-writer.ts';
import { findUserByEmail, normalizeEmail, recordSignIn, toCurrentUser } from './auth.queries.ts';
import { isShutDemoAccount } from './demo-accounts.ts';
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  clearFailures,
  isKnownSource,
  lockedFor,
  PAIR_POLICY,
  recordFailure,
  rememberSource,
  slowdownMs,
  throttleKeys,
} from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, endSession } from '../../sessions/session-store.ts';

export async function login(deps: Deps, ctx: RequestContext, input: TLogin): Promise<{ user: TCurrentUser; token: string }> {
  const { db, config } = deps;
  const now = config.now();
  const email = normalizeEmail(input.email);
  const keys = throttleKeys(email, ctx.ip);
  // A known source answers only for its own failures (login-throttle.ts).
  const known = await isKnownSource(db, email, ctx.ip, now);

  const retryAfter = await lockedFor(db, known ? [keys.pair] : [keys.pair, keys.address, keys.account], now);
  if (retryAfter !== null) {
    await recordAudit(db, ctx, { action: 'auth.login_refused_locked', entityType: 'user', entityId: email.slice(0, 100), outcome: 'denied' });
    throw new HttpError('signIn.throttled', { message: tooManyAttemptsMessage(retryAfter), headers: { 'retry-after': String(retryAfter) } });
  }

  // A demo account outside demo mode is answered as an unknown one (same decoy hash, same time).
  const user = isShutDemoAccount(config, email) ? null : await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    const failures = await db.transaction(async (tx) => {
      await recordFailure(tx, keys.address, now, ADDRESS_POLICY);
      await recordFailure(tx, keys.account, now, ACCOUNT_POLICY);
      await recordAudit(tx, ctx, { action: 'auth.login_failed', entityType: 'user', entityId: user?.id ?? null, outcome: 'denied' });
      return recordFailure(tx, keys.pair, now, PAIR_POLICY);
    });
    await sleep(slowdownMs(failures));
    throw new HttpError('signIn.invalidCredentials');
  }
  const signedIn = toCurrentUser(user);
  if (!user.isActive) {
    await recordAudit(db, actingAs(ctx, signedIn), { action: 'auth.login_refused_inactive', entityType: 'user', entityId: user.id, outcome: 'denied' });
    throw new HttpError('signIn.deactivated');
  }

  const token = await inTransaction(deps, async (tx, raise) => {
    await clearFailures(tx, keys.pair);
    await rememberSource(tx, email, ctx.ip, now);
    return beginSession(deps, tx, raise, actingAs(ctx, signedIn), 'auth.login');
  });
  return { user: signedIn, token };
}

/**
 * Starts a session for someone who has proved who they are, however they did: ends the session
 * the browser held before (so an id never carries over), creates the new one and records it.
 */
export async function beginSession(deps: Deps, tx: Queryable, raise: Raise, ctx: SignedInContext, action: TChangeAction): Promise<string> {
  const { config } = deps;
  if (ctx.sessionToken) await endSession(tx, raise, deps.sessions, ctx.sessionToken);
  const token = await createSession(tx, ctx.user.id, config.now(), { idleMs: deps.settings.current().sessionIdleMs, maxMs: config.sessionMaxMs });
  await recordSignIn(tx, ctx.user.id, config.now());
  await recordAudit(tx, ctx, { action, entityType: 'user', entityId: ctx.user.id });
  return token;
}

export async function logout(deps: Deps, ctx: RequestContext): Promise<void> {
  const token = ctx.sessionToken;
  if (!token) return;
  await inTransaction(deps, async (tx, raise) => {
    await endSession(tx, raise, deps.sessions, token);
    if (ctx.user) await recordAudit(tx, ctx, { action: 'auth.logout', entityType: 'user', entityId: ctx.user.id });
  });
}
