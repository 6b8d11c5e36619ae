import { createHash, randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { staffName, type TCurrentUser } from '#domain/auth';
import {
  RECOVERY_CODE_COUNT,
  type TConfirmedFactor,
  type TConfirmTotp,
  type TConfirmWebauthn,
  type TWebauthnSetup,
  type TFactor,
  type TFactorProof,
  type TMyFactors,
  type TTotpSetup,
} from '#domain/second-factor';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Queryable } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { actingAs, type RequestContext, type SignedInContext } from '../../http/request-context.ts';
import { hashToken, type TSessionFactor } from '../../sessions/session-store.ts';
import { enrolmentOfSession } from '../../sessions/session-enrolment.ts';
import type { SignedInSession } from '../../sessions/session-cache.ts';
import { findUserById, toCurrentUser } from './auth.queries.ts';
import { beginSession } from './begin-session.ts';
import {
  countSignInFailure,
  lockedFor,
  releaseAttempt,
  signInLockedFor,
  signInSucceeded,
  slowdownMs,
  takeSignInAttempt,
  throttledError,
  throttleKeys,
} from './login-throttle.ts';
import {
  confirmedFactors,
  confirmFactor,
  confirmWebauthnFactor,
  deleteChallenge,
  deleteChallengeByToken,
  deleteAllFactors,
  deleteFactor,
  findFactor,
  findLiveChallenge,
  insertChallenge,
  insertPendingTotp,
  insertPendingWebauthn,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  setChallengeWebauthn,
  spendRecoveryCode,
  syncSecondFactorAt,
  takeSignCount,
  takeChallengeAttempt,
  takeTotpStep,
  type TFactorRow,
} from './second-factor.queries.ts';
import { newTotpSecret, totpEnrolment, totpStep } from './totp.ts';
import { authenticationOptions, registrationOptions, relyingParty, verifyAssertion, verifyRegistration, type TRelyingParty } from './webauthn.ts';

/** How long a sign-in waits for its second factor, and how many wrong codes it may take. */
export const CHALLENGE = { ttlMs: 5 * 60_000, maxFailures: 5 } as const;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ten codes of 16 Crockford base32 characters (80 random bits each), for showing once. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => CROCKFORD[randomInt(32)]).join('')).join('-'),
  );
}

const toFactor = (row: TFactorRow): TFactor => ({
  id: row.id,
  kind: row.kind,
  label: row.label,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The relying party passkeys are bound to: PUBLIC_URL, or where the request was sent. */
export function relyingPartyOf(deps: Deps, ctx: RequestContext): TRelyingParty {
  const origin = deps.config.publicUrl?.replace(/\/+$/, '') ?? ctx.origin;
  if (!origin) throw new HttpError('request.invalid');
  return relyingParty(origin, deps.settings.current().clinicName);
}

/**
 * Checks a proof of one of the user's factors and spends it: a TOTP step is taken once, a
 * recovery code once, a WebAuthn challenge once (and the key's signature count moves on).
 * Answers the method that passed, or null. Records nothing: callers record success or failure
 * where they decide what follows.
 */
async function spendProof(
  deps: Deps,
  q: Queryable,
  userId: string,
  proof: TFactorProof,
  webauthn: { rp: TRelyingParty; challenge: string | null },
): Promise<TSessionFactor | null> {
  const now = deps.config.now();
  if (proof.method === 'recovery') return (await spendRecoveryCode(q, userId, sha256(proof.code), now)) ? 'recovery' : null;
  const factors = await confirmedFactors(q, userId);
  if (proof.method === 'webauthn') {
    const factor = factors.find((f) => f.kind === 'webauthn' && f.credentialId === proof.response.id);
    if (!factor || !webauthn.challenge) return null;
    const counter = await verifyAssertion(webauthn.rp, webauthn.challenge, factor, proof.response);
    return counter !== null && (await takeSignCount(q, factor, counter, now)) ? 'webauthn' : null;
  }
  for (const factor of factors) {
    if (factor.kind !== 'totp' || !factor.totpSecret) continue;
    const step = totpStep(deps.secrets.open(factor.totpSecret), proof.code, now);
    if (step !== null && (await takeTotpStep(q, factor.id, step, now))) return 'totp';
  }
  return null;
}

/** A signed-in user's fresh WebAuthn proof waits on a challenge tied to her session. */
const proofChallengeHash = (sessionToken: string | null) => hashToken(`proof:${sessionToken ?? ''}`);

/** Options for a fresh proof with a passkey or security key (a sensitive action follows). */
export async function startWebauthnProof(deps: Deps, ctx: SignedInContext): Promise<Record<string, unknown>> {
  const rp = relyingPartyOf(deps, ctx);
  const keys = (await confirmedFactors(deps.db, ctx.user.id)).filter((f) => f.kind === 'webauthn');
  if (keys.length === 0) throw new HttpError('secondFactor.noneEnrolled');
  const options = await authenticationOptions(rp, keys);
  const tokenHash = proofChallengeHash(ctx.sessionToken);
  await inTransaction(deps, async (tx) => {
    await deleteChallengeByToken(tx, tokenHash);
    await insertChallenge(tx, {
      tokenHash,
      userId: ctx.user.id,
      via: 'proof',
      webauthnChallenge: options.challenge,
      expiresAt: new Date(deps.config.now().getTime() + CHALLENGE.ttlMs),
    });
  });
  return options as unknown as Record<string, unknown>;
}

/**
 * A fresh second factor from a signed-in user, for a sensitive action (resetting someone's
 * factors, removing one's own, new recovery codes). Counted against the same throttle as
 * sign-in, so a stolen session cannot guess codes freely; every try is in the audit trail.
 */
export async function requireFreshFactor(deps: Deps, ctx: SignedInContext, proof: TFactorProof): Promise<TSessionFactor> {
  const { db } = deps;
  const now = deps.config.now();
  if ((await confirmedFactors(db, ctx.user.id)).length === 0 && proof.method !== 'recovery') throw new HttpError('secondFactor.noneEnrolled');
  const keys = throttleKeys(ctx.user.email, ctx.ip);
  // Signed in already: her own address is the one that counts.
  const retryAfter = await lockedFor(db, [keys.pair], now);
  if (retryAfter !== null) throw throttledError(retryAfter);
  const attempt = await takeSignInAttempt(db, keys, now);
  const method = await inTransaction(deps, async (tx) => {
    let challenge: string | null = null;
    if (proof.method === 'webauthn') {
      const waiting = await findLiveChallenge(tx, proofChallengeHash(ctx.sessionToken), now);
      challenge = waiting?.userId === ctx.user.id ? waiting.webauthnChallenge : null;
      await deleteChallengeByToken(tx, proofChallengeHash(ctx.sessionToken));
    }
    const passed = await spendProof(deps, tx, ctx.user.id, proof, { rp: relyingPartyOf(deps, ctx), challenge });
    if (passed === 'recovery') await recordAudit(tx, ctx, { action: 'auth.recovery_code_used', entityType: 'user', entityId: ctx.user.id });
    if (passed) await releaseAttempt(tx, attempt);
    return passed;
  });
  if (!method) {
    await recordAudit(db, ctx, { action: 'auth.second_factor_failed', entityType: 'user', entityId: ctx.user.id, outcome: 'denied' });
    throw new HttpError('signIn.badCode');
  }
  return method;
}

/** What the login answers when a second factor is needed: the methods the user can give. */
export async function secondFactorMethods(q: Queryable, userId: string): Promise<('totp' | 'webauthn' | 'recovery')[]> {
  const kinds = new Set((await confirmedFactors(q, userId)).map((f) => f.kind));
  if (kinds.size === 0) return [];
  return [...(kinds.has('totp') ? (['totp'] as const) : []), ...(kinds.has('webauthn') ? (['webauthn'] as const) : []), 'recovery'];
}

export const userHasFactor = async (q: Queryable, userId: string) => (await confirmedFactors(q, userId)).length > 0;

/** The first step passed (a password, or the identity provider without `amr`): a sign-in waits for the second. Answers its token. */
export async function startSecondStep(q: Queryable, deps: Deps, userId: string, via: 'password' | 'oidc', next: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.config.now();
  await insertChallenge(q, { tokenHash: hashToken(token), userId, via, next, expiresAt: new Date(now.getTime() + CHALLENGE.ttlMs) });
  return token;
}

/**
 * The sign-in's second step: a code for the sign-in the browser's challenge names. A session
 * exists only once it passes. Wrong codes count against the same throttle as passwords (pair,
 * address, account; a known source only against its own pair), and a sign-in that takes
 * CHALLENGE.maxFailures wrong codes is over: the password must be given again.
 */
export async function finishSecondStep(
  deps: Deps,
  ctx: RequestContext,
  challengeToken: string | undefined,
  proof: TFactorProof,
): Promise<{ user: TCurrentUser; token: string; next: string }> {
  const { db } = deps;
  const now = deps.config.now();
  const challenge = challengeToken ? await findLiveChallenge(db, hashToken(challengeToken), now) : null;
  if (!challenge || challenge.via === 'proof') throw new HttpError('signIn.noChallenge');
  const row = await findUserById(db, challenge.userId);
  if (!row || !row.isActive) throw new HttpError('signIn.noChallenge');
  const user = toCurrentUser(row);
  const signedIn = actingAs(ctx, user);
  const keys = throttleKeys(user.email, ctx.ip);
  const retryAfter = await signInLockedFor(db, keys, user.email, ctx.ip, now);
  if (retryAfter !== null) throw throttledError(retryAfter);
  // Both counts are taken before the code is checked, each in one statement, so a burst of
  // codes sent at once is held to the same limits as codes sent one after another.
  const attempt = await takeSignInAttempt(db, keys, now);
  const tries = await takeChallengeAttempt(db, challenge.id, CHALLENGE.maxFailures);
  if (tries === null) {
    await deleteChallenge(db, challenge.id);
    throw new HttpError('signIn.noChallenge');
  }

  const passed = await inTransaction(deps, async (tx, raise) => {
    const method = await spendProof(deps, tx, user.id, proof, { rp: relyingPartyOf(deps, ctx), challenge: challenge.webauthnChallenge });
    if (!method) return null;
    await deleteChallenge(tx, challenge.id);
    await signInSucceeded(tx, keys, user.email, ctx.ip, now);
    await recordAudit(tx, signedIn, { action: 'auth.second_factor_passed', entityType: 'user', entityId: user.id });
    if (method === 'recovery') await recordAudit(tx, signedIn, { action: 'auth.recovery_code_used', entityType: 'user', entityId: user.id });
    const action = challenge.via === 'oidc' ? 'auth.login_oidc' : 'auth.login';
    return beginSession(deps, tx, raise, signedIn, action, method);
  });
  if (passed) return { user, token: passed, next: challenge.next };
  await deps.db.transaction(async (tx) => {
    await recordAudit(tx, signedIn, { action: 'auth.second_factor_failed', entityType: 'user', entityId: user.id, outcome: 'denied' });
    // A WebAuthn challenge answers once, right or wrong: the next try asks the key again.
    await setChallengeWebauthn(tx, challenge.id, null);
    if (tries >= CHALLENGE.maxFailures) await deleteChallenge(tx, challenge.id);
    await countSignInFailure(tx, keys, now);
  });
  await sleep(slowdownMs(attempt.failures));
  throw new HttpError('signIn.badCode');
}

/** The user's own factors, as her Security page shows them. */
export async function myFactors(deps: Deps, session: SignedInSession): Promise<TMyFactors> {
  const { db } = deps;
  const [factors, left] = await Promise.all([confirmedFactors(db, session.user.id), recoveryCodesLeft(db, session.user.id)]);
  return {
    factors: factors.map(toFactor),
    recoveryCodesLeft: left,
    enrolment: enrolmentOfSession(deps.settings.current().secondFactorPolicy, session, deps.config.now()),
  };
}

/**
 * A new authenticator app, pending its first code. Someone who already has a factor proves one
 * first: a session taken over must not be able to add the thief's own phone.
 */
export async function beginTotp(deps: Deps, ctx: SignedInContext, proof: TFactorProof | undefined): Promise<TTotpSetup> {
  if (await userHasFactor(deps.db, ctx.user.id)) {
    if (!proof) throw new HttpError('signIn.badCode', { message: 'Enter a code from a factor you already have to add another.' });
    await requireFreshFactor(deps, ctx, proof);
  }
  const secret = newTotpSecret();
  const factorId = await insertPendingTotp(deps.db, ctx.user.id, deps.secrets.seal(secret));
  const { uri, qrSvg } = await totpEnrolment(secret, deps.settings.current().clinicName, ctx.user.email);
  return { factorId, secret, uri, qrSvg };
}

/**
 * The app's first code confirms it. The first factor a user adds also gets her ten recovery
 * codes, shown this once. Her sessions everywhere re-read that she now has one.
 */
export async function confirmTotp(deps: Deps, ctx: SignedInContext, factorId: string, input: TConfirmTotp): Promise<TConfirmedFactor> {
  const now = deps.config.now();
  const pending = await findFactor(deps.db, ctx.user.id, factorId);
  if (!pending || pending.kind !== 'totp' || pending.confirmedAt || !pending.totpSecret) throw notFound();
  const step = totpStep(deps.secrets.open(pending.totpSecret), input.code, now);
  if (step === null) {
    await recordAudit(deps.db, ctx, { action: 'auth.second_factor_failed', entityType: 'user', entityId: ctx.user.id, outcome: 'denied' });
    throw new HttpError('signIn.badCode');
  }
  const confirmed = await inTransaction(deps, async (tx, raise) => {
    const first = !(await userHasFactor(tx, ctx.user.id));
    if (!(await takeTotpStep(tx, factorId, step, now))) throw new HttpError('signIn.badCode');
    await confirmFactor(tx, factorId, input.label || 'Authenticator app', now);
    await syncSecondFactorAt(tx, ctx.user.id, now);
    await recordAudit(tx, ctx, { action: 'auth.factor_enrolled', entityType: 'user', entityId: ctx.user.id });
    const recoveryCodes = first ? await issueRecoveryCodes(tx, ctx) : null;
    raise({ type: 'user.accessChanged', userId: ctx.user.id });
    const factor = (await findFactor(tx, ctx.user.id, factorId))!;
    return { factor: toFactor(factor), recoveryCodes };
  });
  // This instance's next request must see it at once; the event tells the others.
  return confirmed;
}

/**
 * A new passkey or security key: the browser's creation options, pending its answer. Someone
 * who already has a factor proves one first, as for an app.
 */
export async function beginWebauthn(deps: Deps, ctx: SignedInContext, proof: TFactorProof | undefined): Promise<TWebauthnSetup> {
  const existing = await confirmedFactors(deps.db, ctx.user.id);
  if (existing.length > 0) {
    if (!proof) throw new HttpError('signIn.badCode', { message: 'Confirm with a factor you already have to add another.' });
    await requireFreshFactor(deps, ctx, proof);
  }
  const name = staffName(ctx.user);
  const options = await registrationOptions(relyingPartyOf(deps, ctx), { id: ctx.user.id, email: ctx.user.email, name }, existing);
  const factorId = await insertPendingWebauthn(deps.db, ctx.user.id, options.challenge);
  return { factorId, options: options as unknown as Record<string, unknown> };
}

/** The browser's answer confirms the key; the user's first factor also gets her recovery codes. */
export async function confirmWebauthn(deps: Deps, ctx: SignedInContext, factorId: string, input: TConfirmWebauthn): Promise<TConfirmedFactor> {
  const now = deps.config.now();
  const pending = await findFactor(deps.db, ctx.user.id, factorId);
  if (!pending || pending.kind !== 'webauthn' || pending.confirmedAt || !pending.webauthnChallenge) throw notFound();
  const credential = await verifyRegistration(relyingPartyOf(deps, ctx), pending.webauthnChallenge, input.response);
  if (!credential) {
    await recordAudit(deps.db, ctx, { action: 'auth.second_factor_failed', entityType: 'user', entityId: ctx.user.id, outcome: 'denied' });
    throw new HttpError('signIn.badCode', { message: 'The key did not answer as expected. Try again.' });
  }
  const confirmed = await inTransaction(deps, async (tx, raise) => {
    const first = !(await userHasFactor(tx, ctx.user.id));
    const label = input.label || (credential.passkey ? 'Passkey' : 'Security key');
    await confirmWebauthnFactor(tx, factorId, { label, ...credential }, now);
    await syncSecondFactorAt(tx, ctx.user.id, now);
    await recordAudit(tx, ctx, { action: 'auth.factor_enrolled', entityType: 'user', entityId: ctx.user.id });
    const recoveryCodes = first ? await issueRecoveryCodes(tx, ctx) : null;
    raise({ type: 'user.accessChanged', userId: ctx.user.id });
    return { factor: toFactor((await findFactor(tx, ctx.user.id, factorId))!), recoveryCodes };
  });
  return confirmed;
}

/** The sign-in's second step by passkey: options for the challenge the browser holds. */
export async function webauthnSignInOptions(deps: Deps, ctx: RequestContext, challengeToken: string | undefined): Promise<Record<string, unknown>> {
  const now = deps.config.now();
  const challenge = challengeToken ? await findLiveChallenge(deps.db, hashToken(challengeToken), now) : null;
  if (!challenge || challenge.via === 'proof') throw new HttpError('signIn.noChallenge');
  const keys = (await confirmedFactors(deps.db, challenge.userId)).filter((f) => f.kind === 'webauthn');
  if (keys.length === 0) throw new HttpError('secondFactor.noneEnrolled');
  const options = await authenticationOptions(relyingPartyOf(deps, ctx), keys);
  await setChallengeWebauthn(deps.db, challenge.id, options.challenge);
  return options as unknown as Record<string, unknown>;
}

async function issueRecoveryCodes(tx: Queryable, ctx: SignedInContext): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(tx, ctx.user.id, codes.map(sha256));
  await recordAudit(tx, ctx, { action: 'auth.recovery_codes_issued', entityType: 'user', entityId: ctx.user.id });
  return codes;
}

/** A new set of recovery codes (the old ones stop working), after a fresh second factor. */
export async function renewRecoveryCodes(deps: Deps, ctx: SignedInContext, proof: TFactorProof): Promise<string[]> {
  await requireFreshFactor(deps, ctx, proof);
  return inTransaction(deps, (tx) => issueRecoveryCodes(tx, ctx));
}

/**
 * Removes one of the user's factors, after a fresh second factor. The last one cannot go while
 * her role requires one (she would be signed in with a password alone).
 */
export async function removeFactor(deps: Deps, ctx: SignedInContext, factorId: string, proof: TFactorProof): Promise<void> {
  const factor = await findFactor(deps.db, ctx.user.id, factorId);
  if (!factor || !factor.confirmedAt) throw notFound();
  await requireFreshFactor(deps, ctx, proof);
  const now = deps.config.now();
  await inTransaction(deps, async (tx, raise) => {
    const remaining = (await confirmedFactors(tx, ctx.user.id)).filter((f) => f.id !== factorId);
    const policy = deps.settings.current().secondFactorPolicy[ctx.user.role];
    if (remaining.length === 0 && policy.mode === 'required') throw new HttpError('secondFactor.lastRequired');
    await deleteFactor(tx, factorId);
    // With no factor left, recovery codes would be a second factor of nothing.
    if (remaining.length === 0) await deleteAllFactors(tx, ctx.user.id);
    await syncSecondFactorAt(tx, ctx.user.id, now);
    await recordAudit(tx, ctx, { action: 'auth.factor_removed', entityType: 'user', entityId: ctx.user.id });
    raise({ type: 'user.accessChanged', userId: ctx.user.id });
  });
}
