import { setTimeout as sleep } from 'node:timers/promises';
import { ERROR_MESSAGES, tooManyAttemptsMessage } from '#domain/errors';
import type { TCurrentUser, TLogin } from '#domain/auth';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserByEmail, normalizeEmail, toCurrentUser } from './auth.queries.ts';
import { clearFailures, lockedFor, recordFailure, slowdownMs, THROTTLE, throttleKeys } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, deleteSession } from './session-store.ts';

export interface ClientMeta {
  ip: string;
  userAgent: string | null;
  /** The session cookie the browser already had, ended at sign-in so its id never carries over. */
  previousToken: string | null;
}

export async function login(deps: Deps, input: TLogin, meta: ClientMeta): Promise<{ user: TCurrentUser; token: string }> {
  const { db, config } = deps;
  const now = config.now();
  const email = normalizeEmail(input.email);
  const keys = throttleKeys(email, meta.ip);
  const actor = { userId: null, ip: meta.ip, userAgent: meta.userAgent };

  const retryAfter = await lockedFor(db, [keys.email, keys.address], now);
  if (retryAfter !== null) {
    await recordAudit(db, actor, { action: 'auth.login_refused_locked', entityType: 'user', entityId: email.slice(0, 100) });
    throw new HttpError(429, tooManyAttemptsMessage(retryAfter), { 'retry-after': String(retryAfter) });
  }

  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    const failures = await db.transaction(async (tx) => {
      await recordFailure(tx, keys.address, THROTTLE.addressLimit, now);
      await recordAudit(tx, actor, { action: 'auth.login_failed', entityType: 'user', entityId: user?.id ?? null });
      return recordFailure(tx, keys.email, THROTTLE.emailLimit, now);
    });
    await sleep(slowdownMs(failures));
    throw new HttpError(401, ERROR_MESSAGES.invalidCredentials);
  }
  if (!user.isActive) {
    await recordAudit(db, { ...actor, userId: user.id }, { action: 'auth.login_refused_inactive', entityType: 'user', entityId: user.id });
    throw new HttpError(403, ERROR_MESSAGES.accountDeactivated);
  }

  const token = await db.transaction(async (tx) => {
    await clearFailures(tx, keys.email);
    return beginSession(tx, config, user.id, meta, 'auth.login');
  });
  return { user: toCurrentUser(user), token };
}

/**
 * Starts a session for someone who has proved who they are, however they did: ends the session
 * the browser held before (so an id never carries over), creates the new one and records it.
 */
export async function beginSession(tx: Queryable, config: Config, userId: string, meta: ClientMeta, action: string): Promise<string> {
  if (meta.previousToken) await deleteSession(tx, meta.previousToken);
  const token = await createSession(tx, userId, config.now(), { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs });
  await recordAudit(tx, { userId, ip: meta.ip, userAgent: meta.userAgent }, { action, entityType: 'user', entityId: userId });
  return token;
}

export async function logout(deps: Deps, token: string | null, user: TCurrentUser | null, meta: Omit<ClientMeta, 'previousToken'>): Promise<void> {
  if (!token) return;
  await deps.db.transaction(async (tx) => {
    await deleteSession(tx, token);
    if (user) await recordAudit(tx, { userId: user.id, ...meta }, { action: 'auth.logout', entityType: 'user', entityId: user.id });
  });
}
