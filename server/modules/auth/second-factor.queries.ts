import { and, asc, count, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/auth.ts';
import { recoveryCodes, signInChallenges, userFactors } from '../../db/schema/second-factors.ts';

export type TFactorRow = typeof userFactors.$inferSelect;

/** The user's confirmed factors, oldest first. */
export function confirmedFactors(q: Queryable, userId: string): Promise<TFactorRow[]> {
  return q
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)))
    .orderBy(asc(userFactors.createdAt));
}

export async function findFactor(q: Queryable, userId: string, factorId: string): Promise<TFactorRow | null> {
  const [row] = await q
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.id, factorId), eq(userFactors.userId, userId)));
  return row ?? null;
}

/** A new authenticator, pending its first code; any other pending one of the user's is dropped. */
export async function insertPendingTotp(q: Queryable, userId: string, sealedSecret: string): Promise<string> {
  await q.delete(userFactors).where(and(eq(userFactors.userId, userId), isNull(userFactors.confirmedAt)));
  const [row] = await q
    .insert(userFactors)
    .values({ userId, kind: 'totp', label: 'Authenticator app', totpSecret: sealedSecret })
    .returning({ id: userFactors.id });
  return row!.id;
}

/**
 * Takes a TOTP step for a factor, once: only a step after the last one taken is accepted, in one
 * statement, so two requests with the same code cannot both pass.
 */
export async function takeTotpStep(q: Queryable, factorId: string, step: number, now: Date): Promise<boolean> {
  const rows = await q
    .update(userFactors)
    .set({ lastStep: step, lastUsedAt: now })
    .where(and(eq(userFactors.id, factorId), sql`coalesce(${userFactors.lastStep}, -1) < ${step}`))
    .returning({ id: userFactors.id });
  return rows.length === 1;
}

export async function confirmFactor(q: Queryable, factorId: string, label: string, now: Date): Promise<void> {
  await q.update(userFactors).set({ confirmedAt: now, label }).where(eq(userFactors.id, factorId));
}

export async function deleteFactor(q: Queryable, factorId: string): Promise<void> {
  await q.delete(userFactors).where(eq(userFactors.id, factorId));
}

/** Every factor and recovery code of the user, gone (an admin's reset). */
export async function deleteAllFactors(q: Queryable, userId: string): Promise<number> {
  const removed = await q.delete(userFactors).where(eq(userFactors.userId, userId)).returning({ id: userFactors.id });
  await q.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  return removed.length;
}

/** users.second_factor_at follows the confirmed factors: the first sets it, the last removed clears it. */
export async function syncSecondFactorAt(q: Queryable, userId: string, now: Date): Promise<void> {
  await q
    .update(users)
    .set({
      secondFactorAt: sql`case when exists (select 1 from ${userFactors} f where f.user_id = ${userId} and f.confirmed_at is not null)
        then coalesce(${users.secondFactorAt}, ${now.toISOString()}::timestamptz) else null end`,
    })
    .where(eq(users.id, userId));
}

export async function replaceRecoveryCodes(q: Queryable, userId: string, hashes: string[]): Promise<void> {
  await q.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await q.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Spends a recovery code: true only for an unused code of this user, and only once. */
export async function spendRecoveryCode(q: Queryable, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await q
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function recoveryCodesLeft(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export type TChallengeRow = typeof signInChallenges.$inferSelect;

export async function insertChallenge(q: Queryable, values: typeof signInChallenges.$inferInsert): Promise<void> {
  await q.insert(signInChallenges).values(values);
}

export async function findLiveChallenge(q: Queryable, tokenHash: string, now: Date): Promise<TChallengeRow | null> {
  const [row] = await q
    .select()
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, now)));
  return row ?? null;
}

/**
 * Takes one of a sign-in's code attempts before the code is checked, in one statement: false once
 * it has had `max` (the sign-in is over), however many arrive at once. Answers the attempts
 * taken with this one, or null.
 */
export async function takeChallengeAttempt(q: Queryable, id: string, max: number): Promise<number | null> {
  const rows = await q
    .update(signInChallenges)
    .set({ failures: sql`${signInChallenges.failures} + 1` })
    .where(and(eq(signInChallenges.id, id), lt(signInChallenges.failures, max)))
    .returning({ failures: signInChallenges.failures });
  return rows[0]?.failures ?? null;
}

export async function deleteChallenge(q: Queryable, id: string): Promise<void> {
  await q.delete(signInChallenges).where(eq(signInChallenges.id, id));
}

/** The WebAuthn challenge handed out for a sign-in (the last one counts; null once answered, right or wrong). */
export async function setChallengeWebauthn(q: Queryable, id: string, challenge: string | null): Promise<void> {
  await q.update(signInChallenges).set({ webauthnChallenge: challenge }).where(eq(signInChallenges.id, id));
}

export async function deleteChallengeByToken(q: Queryable, tokenHash: string): Promise<void> {
  await q.delete(signInChallenges).where(eq(signInChallenges.tokenHash, tokenHash));
}

/**
 * Moves a key's signature count on, once: only from the count it was read with, so a replayed
 * or cloned key's answer racing the real one cannot both pass.
 */
export async function takeSignCount(q: Queryable, factor: TFactorRow, counter: number, now: Date): Promise<boolean> {
  const rows = await q
    .update(userFactors)
    .set({ signCount: counter, lastUsedAt: now })
    .where(and(eq(userFactors.id, factor.id), sql`coalesce(${userFactors.signCount}, 0) = ${factor.signCount ?? 0}`))
    .returning({ id: userFactors.id });
  return rows.length === 1;
}

/** A new passkey or security key, pending the browser's answer to its challenge. */
export async function insertPendingWebauthn(q: Queryable, userId: string, challenge: string): Promise<string> {
  await q.delete(userFactors).where(and(eq(userFactors.userId, userId), isNull(userFactors.confirmedAt)));
  const [row] = await q
    .insert(userFactors)
    .values({ userId, kind: 'webauthn', label: 'Passkey', webauthnChallenge: challenge })
    .returning({ id: userFactors.id });
  return row!.id;
}

export async function confirmWebauthnFactor(
  q: Queryable,
  factorId: string,
  values: { label: string; credentialId: string; publicKey: string; signCount: number; transports: string[]; passkey: boolean },
  now: Date,
): Promise<void> {
  await q
    .update(userFactors)
    .set({ ...values, webauthnChallenge: null, confirmedAt: now })
    .where(eq(userFactors.id, factorId));
}

export async function deleteExpiredChallenges(q: Queryable, now: Date): Promise<void> {
  await q.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
}
